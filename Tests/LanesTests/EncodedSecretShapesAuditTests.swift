import Foundation
import LanesTestSupport
import Testing
@testable import LanesRuntime

/// Issue 31: the encoded shapes the second audit still found leaking. Each output line goes
/// through the redactor alone, as a step's output does (`StepLog`).
@Suite(.timeLimit(.minutes(3))) struct EncodedSecretShapesAuditTests {
    /// An App Store Connect key's size: its base64 runs over several wrapped lines.
    static let key = """
        -----BEGIN PRIVATE KEY-----
        MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQgevZzL1gdAFr88hb2
        OF/2NxApJCzGCEDdfSp6VQO30hyhRANCAAQRWz+jn65BtOMvdyHKcvjBeBSDZH2r
        1RTwjmYSi9R/zpBnuQ4EiMnCqfMPWiZqB4QdbAd0E7oH50VpuZ1P087G
        -----END PRIVATE KEY-----
        """

    /// The lines a tool prints for `bytes` base64-encoded and wrapped at `width` columns.
    static func wrapped(_ bytes: [UInt8], width: Int) -> [String] {
        let encoded = Array(Data(bytes).base64EncodedString())
        return stride(from: 0, to: encoded.count, by: width).map { String(encoded[$0..<min($0 + width, encoded.count)]) }
    }

    /// Where the characters of the encoded stream that depend on the secret's bytes alone lie.
    static func secretRange(prefixLength: Int, secretLength: Int) -> Range<Int> {
        let first = (prefixLength + 2) / 3 * 4
        let last = (prefixLength + secretLength) / 3 * 4
        return first..<max(first, last)
    }

    static func secretPart(of bytes: [UInt8], prefixLength: Int, secretLength: Int) -> String {
        let encoded = Array(Data(bytes).base64EncodedString())
        return String(encoded[secretRange(prefixLength: prefixLength, secretLength: secretLength)])
    }

    /// Whether any `length`-character window of `part` survives in `shown`.
    static func leaks(_ part: String, in shown: String, length: Int) -> Bool {
        let characters = Array(part)
        guard characters.count >= length else { return false }
        return (0...(characters.count - length)).contains { shown.contains(String(characters[$0..<$0 + length])) }
    }

    /// Whether the redacted line still shows four characters of the secret's part of the line
    /// (`part`, the characters at `range` of `line`). A window that the line also holds outside
    /// the part (a neighbour's group that happens to encode `---` too) proves nothing.
    static func lineLeaks(_ line: String, shown: String, part range: Range<Int>) -> Bool {
        let characters = Array(line)
        guard range.count >= 4 else { return false }
        let outside = String(characters[..<range.lowerBound]) + "#" + String(characters[range.upperBound...])
        return (range.lowerBound...(range.upperBound - 4)).contains { start in
            let window = String(characters[start..<start + 4])
            return !outside.contains(window) && shown.contains(window)
        }
    }

    @Test(arguments: [76, 64])
    func base64WrappedLikeBase64AndOpenSSLIsMaskedOnEveryLine(width: Int) {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("EncodedSecretShapesAuditTests seed \(seed), width \(width)")
        var random = SplitMix64(seed: seed)
        let json = #"{"type":"service_account","private_key_id":"4f1c2a9e77","client_email":"ci@example.iam.gserviceaccount.com"}"#
        for secret in [Self.key, json] {
            let redactor = Redactor(secrets: [secret])
            for _ in 0..<(ProcessInfo.processInfo.environment["AUDIT_ROUNDS"].flatMap(Int.init) ?? 12) {
                let prefix = (0..<Int.random(in: 0..<200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                let suffix = (0..<Int.random(in: 0..<200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                let stream = prefix + Array(secret.utf8) + suffix
                let lines = Self.wrapped(stream, width: width)
                let shown = lines.map { redactor.redact($0) }
                let range = Self.secretRange(prefixLength: prefix.count, secretLength: secret.utf8.count)
                let part = Self.secretPart(of: stream, prefixLength: prefix.count, secretLength: secret.utf8.count)
                let joined = shown.joined(separator: " | ")
                // Nothing of the part survives across lines...
                #expect(!Self.leaks(part, in: shown.joined(), length: 8), "seed \(seed): \(joined)")
                // ...and a line's edges keep at most three of its characters (as an unwrapped
                // stream keeps the characters the secret shares with its neighbours).
                for (number, line) in lines.enumerated() {
                    let start = number * width
                    let low = max(range.lowerBound, start) - start, high = min(range.upperBound, start + line.count) - start
                    guard low < high else { continue }
                    let inLine = low..<high
                    #expect(!Self.lineLeaks(line, shown: shown[number], part: inLine), "seed \(seed): line \(number) \(line) → \(shown[number])")
                }
            }
        }
    }

    @Test func aWrappedSecretAfterOtherTextOnItsFirstLineIsMasked() {
        let redactor = Redactor(secrets: [Self.key])
        let lines = Self.wrapped(Array(Self.key.utf8), width: 76)
        let shown = ["key: " + lines[0]] + lines.dropFirst().map { $0 }
        let masked = shown.map { redactor.redact($0) }
        let part = Self.secretPart(of: Array(Self.key.utf8), prefixLength: 0, secretLength: Self.key.utf8.count)
        #expect(!Self.leaks(part, in: masked.joined(), length: 8), "\(masked)")
        #expect(masked[0].hasPrefix("key: "))
    }

    @Test func unrelatedBase64LinesAreLeftAlone() {
        let redactor = Redactor(secrets: [Self.key])
        let other = Self.wrapped((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }, width: 76)
        for line in other { #expect(redactor.redact(line) == line) }
        for text in ["Compiling Foo.swift", "Done", "Build succeeded in 3.2 s", "** BUILD SUCCEEDED **"] {
            #expect(redactor.redact(text) == text)
        }
    }

    static let secret = "p@ss w0rd/\"quoted\"+ü-2026 <&> (x)*!'"

    /// Encoders that keep some reserved characters: Python's `quote` (keeps `/`) and `quote_plus`,
    /// JavaScript's `encodeURIComponent` (keeps `!'()*`) and `encodeURI` (keeps the reserved set).
    @Test(arguments: [("quote", "-._~/", false), ("quote_plus", "-._~", true), ("quote_plus safe=/", "-._~/", true),
                      ("encodeURIComponent", "-._~!'()*", false), ("encodeURI", "-._~!'()*;,/?:@&=+$#", false)])
    func percentFormsKeepingReservedCharactersAreMasked(encoder: String, safe: String, spaceAsPlus: Bool) {
        let redactor = Redactor(secrets: [Self.secret])
        var allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        allowed.insert(charactersIn: safe)
        if spaceAsPlus { allowed.insert(" ") }
        var encoded = Self.secret.addingPercentEncoding(withAllowedCharacters: allowed)!
        if spaceAsPlus { encoded = encoded.replacingOccurrences(of: " ", with: "+") }
        for form in [encoded, encoded.replacingOccurrences(of: "%C3%BC", with: "%c3%bc")] {
            let shown = redactor.redact("GET /cb?token=\(form) HTTP/1.1")
            #expect(shown == "GET /cb?token=\(Redactor.mask) HTTP/1.1", "\(encoder): \(form) → \(shown)")
        }
    }

    /// `json.dumps` (ASCII only: `\u00fc`), Go's `encoding/json` (`\u003c`, `\u0026`, `\u003e`),
    /// and escapes with upper-case digits or surrogate pairs.
    @Test func jsonUnicodeEscapesAreMasked() {
        let emoji = "deploy-🚀-key-77"
        let redactor = Redactor(secrets: [Self.secret, emoji])
        let python = #"p@ss w0rd/\"quoted\"+\u00fc-2026 <&> (x)*!'"#
        let go = #"p@ss w0rd/\"quoted\"+ü-2026 \u003c\u0026\u003e (x)*!'"#
        let upper = #"p@ss w0rd\/\"quoted\"+\u00FC-2026 \u003C\u0026\u003E (x)*!'"#
        let pair = #"deploy-\ud83d\ude80-key-77"#
        for form in [python, go, upper, pair] {
            let shown = redactor.redact("{\"value\":\"\(form)\",\"n\":1}")
            #expect(shown == "{\"value\":\"\(Redactor.mask)\",\"n\":1}", "\(form) → \(shown)")
        }
    }

    /// Half the secret on standard output, the rest on standard error: the terminal shows it
    /// whole, so lanes must see it whole.
    @Test func aSecretSplitAcrossStandardOutputAndErrorIsMasked() async throws {
        let secret = "split-across-streams-31"
        let redactor = Redactor(secrets: [secret])
        let lines = LineCollector()
        var environment = ProcessEnvironmentForTests.current
        environment["FIRST_HALF"] = "split-across"
        environment["SECOND_HALF"] = "-streams-31"
        let outcome = try await SubprocessRunner(baseEnvironment: environment, redactor: redactor).run(
            ProcessRequest(["sh", "-c", #"printf %s "$FIRST_HALF"; sleep 0.1; printf '%s\n' "$SECOND_HALF" >&2; echo done"#])
        ) { lines.append(redactor.redact($0)) }
        #expect(outcome.succeeded)
        let shown = lines.lines
        #expect(!shown.contains { $0.contains("split-across") || $0.contains("streams-31") }, "\(shown)")
        #expect(shown.contains(Redactor.mask))
        #expect(shown.last == "done", "the streams keep the order the child wrote them in")
    }
}
