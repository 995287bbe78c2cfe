#if os(Linux)
extension FileDescriptorIO {
    /// asm-generic/ioctls.h's plain number, which Glibc's module imports.
    static var fionread: UInt { UInt(FIONREAD) }
}
#endif
