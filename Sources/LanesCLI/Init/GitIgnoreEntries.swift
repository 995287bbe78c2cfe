import Foundation

/// The lines `lanes init` makes sure `.gitignore` has: dotenv files hold secrets (but `.env.example`
/// is the documented template and belongs in the repository), `.lanes/` holds keychains and work copies.
struct GitIgnoreEntries {
    static let required = [".env", ".env.*", "!.env.example", ".lanes/"]

    /// `existing` (the current `.gitignore`, or nil) with the missing lines appended under a comment;
    /// nil when nothing is missing.
    static func merged(into existing: String?, adding extra: [String] = []) -> String? {
        let present = Set((existing ?? "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        // The negation only works below `.env.*`: when that line is added, the negation follows it again.
        let missing = (required + extra).filter { !present.contains($0) || ($0 == "!.env.example" && !present.contains(".env.*")) }
        guard !missing.isEmpty else { return nil }
        var text = existing ?? ""
        if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
        if !text.isEmpty { text += "\n" }
        return text + "# lanes: secrets in dotenv files, keychains and work copies\n" + missing.joined(separator: "\n") + "\n"
    }
}
