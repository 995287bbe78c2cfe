#if canImport(Darwin)
extension FileDescriptorIO {
    /// `_IOR('f', 127, int)` (sys/filio.h, encoded by sys/ioccom.h: IOC_OUT | sizeof(int) << 16 |
    /// 'f' << 8 | 127). Swift does not import function-like macros, so the value is spelled out, as
    /// Swift's Darwin overlay does for the TIOC requests.
    static let fionread: UInt = 0x4004_667F
}
#endif
