public import LanesPlatform

// A project, .pbxproj or .xcconfig file that cannot be read or edited as asked is the project's to fix.

extension XcodeProjectError: ClassifiedError {
    public var lanesKind: ErrorKind { .configuration }
}

extension PBXParseError: ClassifiedError {
    public var lanesKind: ErrorKind { .configuration }
}

extension XCConfigError: ClassifiedError {
    public var lanesKind: ErrorKind { .configuration }
}
