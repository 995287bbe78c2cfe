/// lanes' own files are missing or unusable: the installation is the machine's to fix (78).
extension InstallationError: ClassifiedError {
    public var lanesKind: ErrorKind { .environment }
}
