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
