/// Everything registered so far, searched together. Immutable: replaced whole when a secret
/// registers, so readers take a reference under the redactor's lock and search without it.
///
/// A byte of text is covered when any of these finds a secret over it:
/// - the literal shapes (`PatternSet`: the value, its lines, its base64, percent and JSON forms);
/// - the same shapes in the text with its `%XX` escapes undone, or its JSON escapes (`DecodedText`);
/// - a piece of a base64 shape at the edge of a wrapped line (`WrappedBase64`).
final class SecretMatcher: Sendable {
    let patterns: PatternSet
    let wrapped: WrappedBase64

    init(patterns: PatternSet = PatternSet(patterns: []), wrapped: WrappedBase64 = WrappedBase64(shapes: [])) {
        self.patterns = patterns
        self.wrapped = wrapped
    }

    func adding(_ shapes: SecretShapes, base64 allBase64: [[UInt8]]) -> SecretMatcher {
        SecretMatcher(patterns: patterns.adding(shapes.patterns), wrapped: WrappedBase64(shapes: allBase64))
    }

    var isEmpty: Bool { patterns.isEmpty }

    /// The covered runs of `text`, in order; runs that overlap are merged, runs that only touch
    /// stay apart (each gets its own mask, as before decoded views existed).
    func covered(_ text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var runs = patterns.coveredRuns(text)
        var more: [Range<Int>] = []
        for view in [DecodedText.percentDecoded(text), DecodedText.jsonUnescaped(text)] {
            guard let view else { continue }
            view.bytes.withUnsafeBufferPointer { decoded in
                for run in patterns.coveredRuns(decoded) { more.append(view.source(of: run)) }
            }
        }
        wrapped.cover(text, into: &more)
        guard !more.isEmpty else { return runs }
        runs += more
        runs.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for run in runs {
            if let last = merged.last, run.lowerBound < last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, run.upperBound)
            } else {
                merged.append(run)
            }
        }
        return merged
    }

    /// The text with one mask per covered run; nil when nothing is covered.
    func masked(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let runs = covered(text)
        guard !runs.isEmpty else { return nil }
        let mask = Array(Redactor.mask.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var position = 0
        for run in runs {
            result.append(contentsOf: text[position..<run.lowerBound])
            result.append(contentsOf: mask)
            position = run.upperBound
        }
        result.append(contentsOf: text[position...])
        return result
    }
}
