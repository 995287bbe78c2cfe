#if os(Linux)
extension SignalHandler {
    static func setHandler(_ action: inout sigaction, _ handler: @convention(c) (Int32) -> Void) {
        action.__sigaction_handler.sa_handler = handler
    }

    static func handlerAddress(_ action: sigaction) -> Int {
        unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
    }
}
#endif

#if os(Linux)
extension SignalHandler {
    /// Whether `action` ignores its signal (`SIG_IGN`, which is 1 on every C library).
    static func isIgnored(_ action: sigaction) -> Bool {
        guard let handler = action.__sigaction_handler.sa_handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == 1
    }
}
#endif
