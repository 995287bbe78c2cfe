internal import COpenSSL

/// An OpenSSL library context owned by lanes, with the "default" and "legacy" providers loaded.
///
/// Legacy PKCS#12 files (RC2-40, as Keychain Access exports) need the legacy provider; loading any
/// provider explicitly switches off the implicit default one, so both are loaded. Keeping them in
/// a private context leaves the process-wide OpenSSL state untouched for everyone else.
///
/// There is one for the process (`forProcess()`), made on first use and never freed. OpenSSL keeps
/// per-thread state for each context a thread used (its random generators) and releases it when
/// that thread ends, reading the context then: a context freed while a thread that used it lives
/// on (a pool thread that read a .p12 for a task whose identity went away on another thread) made
/// that thread crash at its exit, in `CRYPTO_THREAD_read_lock` on freed memory
/// (`OpenSSLExitTests.aThreadThatUsedTheContextEndsAfterItsIdentityIsGone`). Once its providers
/// are loaded a library context is safe to use from any thread.
final class OpenSSLContext: @unchecked Sendable {
    let handle: OpaquePointer
    private let providers: [OpaquePointer]

    private static let process = Result { () throws(SigningError) -> OpenSSLContext in try OpenSSLContext() }

    /// The process's context; the error of its creation, the same at every call, when the
    /// providers cannot be loaded.
    static func forProcess() throws(SigningError) -> OpenSSLContext { try process.get() }

    private init() throws(SigningError) {
        OpenSSLRuntime.start()
        guard let context = OSSL_LIB_CTX_new() else {
            throw SigningError.openSSL(operation: "create a library context", detail: OpenSSLErrors.drain().summary)
        }
        var loaded: [OpaquePointer] = []
        for name in ["default", "legacy"] {
            guard let provider = OSSL_PROVIDER_load(context, name) else {
                let detail = OpenSSLErrors.drain().summary
                loaded.forEach { OSSL_PROVIDER_unload($0) }
                OSSL_LIB_CTX_free(context)
                throw SigningError.openSSLProviderMissing(name: name, detail: detail)
            }
            loaded.append(provider)
        }
        handle = context
        providers = loaded
    }

}

/// OpenSSL's process-wide start. By default OpenSSL frees its global state in an `atexit` handler,
/// and a thread still inside OpenSSL while the process exits (a test runner's worker, a daemon's
/// task) then takes a freed lock and crashes. Starting OpenSSL without that handler avoids it; the
/// operating system reclaims everything at exit anyway. The first OpenSSL call of a process decides,
/// even `ERR_clear_error`, so every entry into OpenSSL calls `start()` first (`OpenSSLExitTests`);
/// the start itself is COpenSSL's `lanes_openssl_start`, the one LanesUpload calls too.
enum OpenSSLRuntime {
    private static let started: Bool = lanes_openssl_start() == 1

    static func start() { _ = started }
}

/// One entry of OpenSSL's per-thread error queue.
struct OpenSSLError: Sendable, Equatable {
    let library: Int32
    let reason: Int32
    let text: String
    /// Extra data OpenSSL attached, such as "Verify error:unable to get local issuer certificate".
    let data: String?
}

enum OpenSSLErrors {
    /// Empties the calling thread's OpenSSL error queue and returns what was in it, oldest first.
    static func drain() -> [OpenSSLError] {
        var errors: [OpenSSLError] = []
        while true {
            var data: UnsafePointer<CChar>?
            var flags: Int32 = 0
            let code = ERR_get_error_all(nil, nil, nil, &data, &flags)
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let extra = (flags & ERR_TXT_STRING) != 0 ? data.map { String(cString: $0) } : nil
            errors.append(OpenSSLError(library: lanes_ERR_GET_LIB(code), reason: lanes_ERR_GET_REASON(code),
                                       text: String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), data: extra?.isEmpty == true ? nil : extra))
        }
        return errors
    }

    /// Forgets earlier errors so the next `drain()` only reports the operation about to run.
    static func clear() { ERR_clear_error() }
}

extension [OpenSSLError] {
    func contains(library: Int32, reason: Int32) -> Bool {
        contains { $0.library == library && $0.reason == reason }
    }

    /// A one-line summary for error messages: the last reason OpenSSL gave, plus its data.
    var summary: String {
        guard let last = last(where: { $0.data != nil }) ?? last else { return "no detail from OpenSSL" }
        return [last.text, last.data].compactMap { $0 }.joined(separator: ": ")
    }
}
