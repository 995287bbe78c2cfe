public func brewTime(grams: Int) -> Int { grams * 3 }
