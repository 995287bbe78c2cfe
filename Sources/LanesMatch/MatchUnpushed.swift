internal import Foundation

/// Where files a storage write could not push are kept, still encrypted, so a certificate Apple
/// issued never loses its private key: `<state>/match-unpushed/<UTC time>-<random>` (0700, files
/// 0600), laid out like the storage, so it can be read as `storage_mode:<folder>`.
public enum MatchUnpushed {
    /// Writes `encrypted` into a new folder under `<stateDirectory>/match-unpushed` and returns it.
    public static func keep(_ encrypted: [String: [UInt8]], stateDirectory: String) throws(MatchError) -> String {
        let stamp = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false).timeSeparator(.omitted).dateSeparator(.omitted))
        let random = (0..<4).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        let folder = "\(stateDirectory)/match-unpushed/\(stamp)-\(random)"
        try MatchFiles(encrypted).write(into: folder)
        return folder
    }

    /// The error naming `folder`, what failed and how to store its files, with `cause` kept.
    public static func error(folder: String, type: String, cause: String) -> MatchError {
        .notStored("the new files were not stored (\(cause)); they are kept encrypted in \(folder) — the certificate's private key exists nowhere else",
                   folder: folder, hint: "store them with: MATCH_PASSWORD=... lanes match decrypt --storage-mode \(folder) --output <private folder>, "
                      + "then lanes match import --type \(type) --cert <private folder>/certs/<kind>/<id>.cer --p12 <private folder>/certs/<kind>/<id>.p12 "
                      + "--git-url <the storage>; delete both folders afterwards")
    }
}
