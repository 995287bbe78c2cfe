internal import CGit2

/// Lends `strings` to libgit2 as a `git_strarray` for the duration of `body`.
func withStringArray<T>(_ strings: [String], _ body: (inout git_strarray) throws -> T) rethrows -> T {
    let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { string in
        let bytes = Array(string.utf8CString)
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        return copy
    }
    defer { pointers.forEach { $0?.deallocate() } }
    var mutable = pointers
    return try mutable.withUnsafeMutableBufferPointer { buffer in
        var array = git_strarray(strings: buffer.baseAddress, count: buffer.count)
        return try body(&array)
    }
}

/// Copies a libgit2-owned `git_strarray` into Swift strings and frees it.
func takeStringArray(_ array: inout git_strarray) -> [String] {
    defer { git_strarray_dispose(&array) }
    return (0..<array.count).compactMap { array.strings[$0].map { String(cString: $0) } }
}
