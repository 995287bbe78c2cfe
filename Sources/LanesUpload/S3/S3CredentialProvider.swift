import Synchronization
import LanesHTTP

/// The credentials an S3 client signs with, renewed before they expire so that an upload may
/// outlive them (a 10 GB upload against one-hour keys from STS, a container or IMDS).
///
/// It follows botocore's `RefreshableCredentials`: keys without an expiry are kept for good; keys
/// within 15 minutes of expiry (the advisory window) are renewed by one thread while the others
/// keep signing with them, and a failure then is ignored (the keys still work); keys within 10
/// minutes (the mandatory window) are renewed before any further use, every thread waits for the
/// one renewing, and a failure is the request's error. Renewed secrets are registered before use.
public final class S3CredentialProvider: Sendable {
    /// botocore's `_DEFAULT_ADVISORY_REFRESH_TIMEOUT` and `_DEFAULT_MANDATORY_REFRESH_TIMEOUT`.
    public static let advisoryWindow = 15 * 60
    public static let mandatoryWindow = 10 * 60

    private let held: Mutex<S3Credentials>
    /// Held by the one thread renewing.
    private let renewing = Mutex(())
    private let renew: @Sendable () throws(UploadError) -> S3Credentials
    private let registerSecret: @Sendable (String) -> Void
    private let now: @Sendable () -> Int

    /// Starts from `initial` (whose secrets are registered here) and calls `renew` for new ones.
    public init(initial: S3Credentials, registerSecret: @escaping @Sendable (String) -> Void = { _ in },
                now: @escaping @Sendable () -> Int = systemSeconds,
                renew: @escaping @Sendable () throws(UploadError) -> S3Credentials) {
        initial.secrets.forEach(registerSecret)
        held = Mutex(initial)
        self.renew = renew
        self.registerSecret = registerSecret
        self.now = now
    }

    /// Credentials that never change (long-term keys, or a caller that renews nothing).
    public convenience init(fixed credentials: S3Credentials) {
        self.init(initial: credentials, renew: { credentials })
    }

    /// The credentials in hand, without renewing: for naming their source in errors.
    public var latest: S3Credentials { held.withLock { $0 } }

    /// Credentials to sign a request with now.
    public func current() throws(UploadError) -> S3Credentials {
        let credentials = latest
        guard needsRenewal(credentials, within: Self.advisoryWindow) else { return credentials }
        let outcome: Result<S3Credentials, UploadError>? = renewing.withLockIfAvailable { _ in
            let credentials = latest
            guard needsRenewal(credentials, within: Self.advisoryWindow) else { return .success(credentials) }
            return renewed(from: credentials, mandatory: needsRenewal(credentials, within: Self.mandatoryWindow))
        }
        if let outcome { return try outcome.get() }
        // Another thread is renewing: keys still outside the mandatory window keep working meanwhile.
        guard needsRenewal(latest, within: Self.mandatoryWindow) else { return latest }
        return try renewing.withLock { _ throws(UploadError) in
            let credentials = latest
            guard needsRenewal(credentials, within: Self.mandatoryWindow) else { return credentials }
            return try renewed(from: credentials, mandatory: true).get()
        }
    }

    private func needsRenewal(_ credentials: S3Credentials, within window: Int) -> Bool {
        guard let expiration = credentials.expiration else { return false }
        return expiration - now() < window
    }

    /// Called with `renewing` held.
    private func renewed(from old: S3Credentials, mandatory: Bool) -> Result<S3Credentials, UploadError> {
        let fresh: S3Credentials
        do { fresh = try renew() } catch {
            // In the advisory window the old keys still work for ten minutes or more.
            return mandatory ? .failure(error) : .success(old)
        }
        fresh.secrets.forEach(registerSecret)
        if let expiration = fresh.expiration, expiration <= now() {
            return .failure(UploadError(.configuration, "s3: the credentials renewed from \(fresh.source) have already expired",
                                        hint: "check the clock of this machine and of the service that issued them"))
        }
        held.withLock { $0 = fresh }
        return .success(fresh)
    }
}
