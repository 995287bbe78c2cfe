/// Integers as `java.text.MessageFormat` prints them in an English locale: `1,000`, `-1`.
enum JavaNumberFormat {
    static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    static func grouped(_ value: Int32) -> String { grouped(Int64(value)) }
}
