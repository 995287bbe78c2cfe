extension FileDescriptorIO {
    /// How many bytes wait to be read from a pipe or socket (`ioctl` `FIONREAD`); 0 when the
    /// descriptor cannot say. The request's value differs per OS (`fionread`, one file each).
    public static func pendingBytes(in descriptor: Int32) -> Int {
        var count: Int32 = 0
        return ioctl(descriptor, fionread, &count) == 0 ? Int(count) : 0
    }
}
