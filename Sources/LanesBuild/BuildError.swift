/// What goes wrong in LanesBuild; each case names the file, key or field at fault.
public enum BuildError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An `exportOptions` key that xcodebuild does not document, or a value of the wrong type.
    case exportOption(key: String, problem: String)
    /// A file that could not be read or written.
    case file(path: String, problem: String)
    /// An .ipa (or another zip) whose structure is not what it must be.
    case archive(path: String, problem: String)
    /// An .ipa that is well formed but is not the one the lane expects.
    case artifactRefused(path: String, problem: String)
    /// A Swift package folder that cannot be built or packed as asked.
    case package(path: String, problem: String)
    /// A step option whose text cannot be used (an `xcargs` with an unbalanced quote).
    case option(name: String, problem: String)

    public var description: String {
        switch self {
        case .exportOption(let key, let problem): "exportOptions: \"\(key)\" \(problem)"
        case .file(let path, let problem): "\(path): \(problem)"
        case .archive(let path, let problem): "\(path): \(problem)"
        case .artifactRefused(let path, let problem): "\(path) refused: \(problem)"
        case .package(let path, let problem): "\(path): \(problem)"
        case .option(let name, let problem): "option '\(name)': \(problem)"
        }
    }
}
