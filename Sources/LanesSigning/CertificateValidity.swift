#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Where a certificate stands on a given day.
public enum CertificateValidity: Sendable, Equatable {
    case valid(daysLeft: Int)
    /// Still valid, but inside the warning window: renew it soon.
    case expiringSoon(daysLeft: Int)
    case expired(since: Date)
    case notYetValid(from: Date)
}

/// How close to expiry a certificate may get before lanes warns.
public struct ValidityPolicy: Sendable, Equatable {
    public var warningDays: Int

    public init(warningDays: Int = 30) {
        self.warningDays = warningDays
    }

    public func evaluate(_ certificate: Certificate, at now: Date) -> CertificateValidity {
        if now < certificate.notBefore { return .notYetValid(from: certificate.notBefore) }
        if now >= certificate.notAfter { return .expired(since: certificate.notAfter) }
        let daysLeft = Int(certificate.notAfter.timeIntervalSince(now) / 86_400)
        return daysLeft < warningDays ? .expiringSoon(daysLeft: daysLeft) : .valid(daysLeft: daysLeft)
    }

    /// Throws when `certificate` (read from `path`) is expired or not yet valid; returns a warning
    /// line when it expires within the window.
    public func check(_ certificate: Certificate, from path: String, at now: Date) throws(SigningError) -> String? {
        switch evaluate(certificate, at: now) {
        case .valid:
            return nil
        case let .expiringSoon(daysLeft):
            return "\(path): certificate '\(certificate.displayName)' expires in \(daysLeft) day\(daysLeft == 1 ? "" : "s") (\(ISO8601.string(certificate.notAfter))); renew it before it stops signing builds"
        case let .expired(since):
            throw .certificateExpired(path: path, commonName: certificate.displayName, notAfter: since)
        case let .notYetValid(from):
            throw .certificateNotYetValid(path: path, commonName: certificate.displayName, notBefore: from)
        }
    }
}
