/// Jenkins' `CronTab.checkSanity`: warnings about valid but suspicious lines, same texts.
enum CronSanity {
    private static let everyMinute: UInt64 = (1 << 60) - 1

    /// The warning for one line (`spec` is the line as Jenkins stores it: the alias expansion for
    /// alias lines), or nil.
    static func warning(spec: String, table: CronTable) -> String? {
        if table.minutes == everyMinute {
            return "Do you really mean \"every minute\" when you say \"\(spec)\"? Perhaps you meant \"H \(afterFirstSpace(spec))\""
        }
        let shortCycleDays = (1...30).filter { table.daysOfMonth & (1 << UInt64($0)) != 0 }.count
        if shortCycleDays > 5, shortCycleDays < 28 {
            return "Short cycles in the day-of-month field will behave oddly near the end of a month"
        }
        if let hashed = hashify(spec) {
            return "Spread load evenly by using \u{2018}\(hashed)\u{2019} rather than \u{2018}\(spec)\u{2019}"
        }
        return nil
    }

    /// Java's `spec.substring(spec.indexOf(' ') + 1)`: the whole text when there is no space.
    private static func afterFirstSpace(_ spec: String) -> Substring {
        guard let space = spec.firstIndex(of: " ") else { return spec[...] }
        return spec[spec.index(after: space)...]
    }

    /// `CronTab.hashify`: the `H` form Jenkins suggests for a line without `H`. A line that parsed
    /// is plain ASCII (the lexer accepts nothing else), so bytes are characters here.
    static func hashify(_ spec: String) -> String? {
        if spec.contains("H") { return nil }
        if spec.hasPrefix("*/") { return "H" + spec.dropFirst() }
        let bytes = Array(spec.utf8)
        let leadingDigits = bytes.prefix(while: isDigit).count
        // `\d+ .+`
        if leadingDigits > 0, bytes.count > leadingDigits + 1, bytes[leadingDigits] == UInt8(ascii: " ") {
            return "H " + afterFirstSpace(spec)
        }
        // `0(,(\d+)(,\d+)*)( .+)`: a minute list 0,p,2p,… (all multiples below 60) becomes H/p.
        guard bytes.count > 1, bytes[0] == UInt8(ascii: "0"), bytes[1] == UInt8(ascii: ",") else { return nil }
        var index = 1
        var firstNumber: [UInt8]?
        while index < bytes.count, bytes[index] == UInt8(ascii: ",") {
            let digits = bytes[(index + 1)...].prefix(while: isDigit)
            guard !digits.isEmpty else { return nil }
            if firstNumber == nil { firstNumber = Array(digits) }
            index += 1 + digits.count
        }
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: " "), let firstNumber else { return nil }
        let significant = firstNumber.drop { $0 == UInt8(ascii: "0") }
        guard significant.count <= 10, let period = Int(String(decoding: significant, as: UTF8.self)), period > 0 else { return nil }
        let list = String(decoding: bytes[1..<index], as: UTF8.self)
        let multiples = stride(from: period, to: 60, by: period).map { ",\($0)" }.joined()
        return multiples == list ? "H/\(period)" + String(decoding: bytes[index...], as: UTF8.self) : nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
