#if canImport(Darwin)
extension SignalHandler {
    /// Darwin's `struct sigaction` holds the handler in the `__sigaction_u` union.
    static func setHandler(_ action: inout sigaction, _ handler: @convention(c) (Int32) -> Void) {
        action.__sigaction_u.__sa_handler = handler
    }

    static func handlerAddress(_ action: sigaction) -> Int {
        unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self)
    }
}
#endif
