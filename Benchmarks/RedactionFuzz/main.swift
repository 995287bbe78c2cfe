// Fuzz command for the redactor and the dotenv parser (issue 10): N random secrets of every shape
// in random text must never come out, and random dotenv files must parse back to what was written,
// or fail with an error that shows no value.
// Usage: swift run -c release RedactionFuzz [--count N] [--seed S]
import Lanes
import Foundation

struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

var count = 1_000_000
var seed: UInt64 = 20_261_123
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--count": count = Int(arguments.next() ?? "") ?? count
    case "--seed": seed = UInt64(arguments.next() ?? "") ?? seed
    default: fatalError("usage: RedactionFuzz [--count N] [--seed S]")
    }
}
var random = SplitMix64(state: seed)

/// Pieces secrets and text are made of: letters, digits, whitespace and line ends, JSON and XML
/// metacharacters, multi-byte characters, combining marks and joiners. No `*`: the mask is made of it.
let pieces: [String] = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789").map(String.init)
    + [" ", "\t", "\n", "\r\n", "\r", "\"", "'", "<", ">", "&", "\\", "{", "}", "=", "#", "$", "/", ":", ",",
       "é", "ß", "日本", "😀", "\u{0301}", "\u{200D}", "\u{20E3}", "\u{FE0F}", "\u{FEFF}", "\u{0}"]

@MainActor func randomText(_ length: Int) -> String {
    var text = ""
    for _ in 0..<length { text += pieces[Int(random.next() % UInt64(pieces.count))] }
    return text
}

/// What must not appear for `secret`: the value, without trailing whitespace, and each line of 4+ bytes.
func forbidden(_ secret: String) -> [String] {
    let trimmed = String(decoding: Array(secret.utf8).trimmingTrailingSpace(), as: UTF8.self)
    var result = [secret, trimmed].filter { !$0.isEmpty }
    for line in trimmed.utf8.split(separator: UInt8(ascii: "\n")) {
        let content = Array(line.drop { $0 == 32 || $0 == 9 || $0 == 13 }).trimmingTrailingSpace()
        if content.count >= 4 { result.append(String(decoding: content, as: UTF8.self)) }
    }
    return result
}

extension Array where Element == UInt8 {
    func trimmingTrailingSpace() -> [UInt8] {
        var copy = self
        while let last = copy.last, [32, 9, 13, 10].contains(last) { copy.removeLast() }
        return copy
    }
}

/// A single-quoted value keeps its bytes, except that a CRLF inside reads as LF.
func crlfAsLF(_ bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    for (index, byte) in bytes.enumerated() where !(byte == 13 && index + 1 < bytes.count && bytes[index + 1] == 10) {
        result.append(byte)
    }
    return result
}

func contains(_ text: String, _ part: String) -> Bool {
    let haystack = Array(text.utf8), needle = Array(part.utf8)
    guard !needle.isEmpty, needle.count <= haystack.count else { return false }
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
        if Array(haystack[start..<(start + needle.count)]) == needle { return true }
    }
    return false
}

var failures = 0
@MainActor func fail(_ message: String) {
    failures += 1
    if failures <= 20 { print("FAIL: \(message)") }
}

let clock = ContinuousClock()
let start = clock.now

// 1. The redactor: each secret, in one of its shapes, amid random text, sometimes next to a combining mark.
for index in 0..<count {
    var secret = randomText(1 + Int(random.next() % 24))
    if random.next() % 4 == 0 { secret += ["\n", "\r\n", " \n"][Int(random.next() % 3)] }
    if random.next() % 6 == 0 { secret = randomText(6) + "\n" + randomText(6) + "\n" + randomText(6) }
    guard !secret.utf8.allSatisfy({ [32, 9, 13, 10].contains($0) }) else { continue }
    let shapes = forbidden(secret)
    let shown = shapes[Int(random.next() % UInt64(shapes.count))]
    let text = randomText(Int(random.next() % 40)) + shown + (random.next() % 3 == 0 ? "\u{0301}" : "")
        + randomText(Int(random.next() % 40))
    let redactor = Redactor(secrets: [secret])
    let redacted = redactor.redact(text)
    for part in shapes where contains(redacted, part) {
        fail("#\(index): \(part.debugDescription) of secret \(secret.debugDescription) came out of \(text.debugDescription) as \(redacted.debugDescription)")
    }
    var bytes = Array(text.utf8)
    let byteRedacted = bytes.withUnsafeMutableBufferPointer { redactor.redact(bytes: UnsafeBufferPointer($0)) } ?? bytes
    if String(decoding: byteRedacted, as: UTF8.self) != redacted { fail("#\(index): byte and string redaction differ") }
}
let redactorTime = clock.now - start

// 2. The dotenv parser: random files (LF or CRLF, BOM, quotes, export, comments) parse back exactly;
//    a malformed line fails with an error that shows none of the file's values.
let dotenvStart = clock.now
let nameCharacters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789")
for index in 0..<count {
    var expected: [String: String] = [:]
    var lines: [String] = []
    let lineEnd = random.next() % 2 == 0 ? "\n" : "\r\n"
    for _ in 0..<(1 + Int(random.next() % 4)) {
        var name = "V"
        for _ in 0..<Int(random.next() % 8) { name.append(nameCharacters[Int(random.next() % UInt64(nameCharacters.count))]) }
        let value = String(String.UnicodeScalarView(randomText(Int(random.next() % 16)).unicodeScalars.filter { $0 != "\u{0}" }))
        let prefix = random.next() % 4 == 0 ? "export " : ""
        switch random.next() % 2 {
        case 0 where !value.unicodeScalars.contains("'"):  // scalars: "'\u{FE0F}" is one Character
            lines.append("\(prefix)\(name)='\(value)'")
            expected[name] = String(decoding: crlfAsLF(Array(value.utf8)), as: UTF8.self)
        default:
            var escaped = ""
            for character in value.unicodeScalars {
                switch character {
                case "\\": escaped += "\\\\"
                case "\"": escaped += "\\\""
                case "$": escaped += "\\$"
                case "\r": escaped += "\\r"
                default: escaped.unicodeScalars.append(character)
                }
            }
            lines.append("\(prefix)\(name)=\"\(escaped)\"")
            expected[name] = value
        }
        if random.next() % 5 == 0 {
            lines.append("# comment " + String(String.UnicodeScalarView(randomText(5).unicodeScalars.filter { $0 != "\n" })))
        }
    }
    let bom = random.next() % 10 == 0 ? "\u{FEFF}" : ""
    let text = bom + lines.joined(separator: lineEnd) + lineEnd
    var parser = DotEnvParser(text: text)
    do {
        let parsed = try parser.parse()
        if parsed != expected { fail("dotenv #\(index): \(text.debugDescription) parsed as \(parsed), expected \(expected)") }
    } catch {
        fail("dotenv #\(index): \(text.debugDescription) failed: \(error.reason)")
    }

    // A malformed line holding a secret-looking token: the error must not show it.
    let token = "tok" + randomText(8).filter { $0.isLetter || $0.isNumber }
    let broken = ["\(token)", "A B=\(token)", "A=\"\(token)", "A='\(token)' x", "1A=\(token)"][Int(random.next() % 5)]
    var badParser = DotEnvParser(text: text + broken + lineEnd)
    do {
        _ = try badParser.parse()
        fail("dotenv #\(index): malformed line \(broken.debugDescription) was accepted")
    } catch {
        if contains(error.reason, token) || expected.values.contains(where: { $0.count >= 8 && contains(error.reason, $0) }) {
            fail("dotenv #\(index): the error shows a value: \(error.reason)")
        }
    }
}
let dotenvTime = clock.now - dotenvStart

print("redactor: \(count) random secrets in random text, \(redactorTime)")
print("dotenv:   \(count) random files and \(count) malformed ones, \(dotenvTime)")
if failures > 0 {
    print("\(failures) failures")
    exit(1)
}
print("no secret came out; every file parsed back exactly; no error showed a value")
