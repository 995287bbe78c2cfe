/// What part of a release a check looks at.
public enum DoctorArea: String, Sendable, CaseIterable, Codable {
    case toolchain, signing, schedules, secrets
}

public enum DoctorSeverity: String, Sendable, Comparable, CaseIterable, Codable {
    case ok, warning, error

    private var rank: Int {
        switch self {
        case .ok: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// One result of `lanes doctor`: what was checked, how it stands and, when it is not ok, how to
/// fix it. Messages name files and variables, never a secret's value.
public struct DoctorFinding: Sendable, Hashable, Codable {
    public let area: DoctorArea
    /// What was checked: a tool, `Staging certificate`, a lane, a variable name.
    public let subject: String
    public let severity: DoctorSeverity
    public let message: String
    public let fix: String?

    public init(_ area: DoctorArea, _ subject: String, _ severity: DoctorSeverity, _ message: String, fix: String? = nil) {
        self.area = area
        self.subject = subject
        self.severity = severity
        self.message = message
        self.fix = fix
    }
}

extension [DoctorFinding] {
    /// The worst severity found (ok when empty).
    public var worst: DoctorSeverity { map(\.severity).max() ?? .ok }
}
