/// The variables a lane sees: the process environment over any dotenv files, with secret reads
/// registered for redaction.
///
/// Printing it (`"\(environment)"`, `dump`, a lane value that holds it) shows how many variables
/// it has, never their values: an undeclared secret must not leak through a description.
public struct Environment: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let variables: [String: String]
    public let redactor: Redactor

    public init(variables: [String: String], redactor: Redactor = Redactor()) {
        self.variables = variables
        self.redactor = redactor
    }

    public subscript(name: String) -> String? { variables[name] }

    /// A required plain variable.
    public func value(_ name: String) throws -> String {
        guard let value = variables[name], !value.isEmpty else {
            throw LanesError(.environment, "environment variable \(name) is not set",
                             hint: "export \(name)=... or add it to .env")
        }
        return value
    }

    /// A required secret: the value is redacted from everything lanes prints or stores from now on.
    public func secret(_ name: String) throws -> Secret {
        guard let value = variables[name], !value.isEmpty else {
            throw LanesError(.environment, "secret \(name) is not set",
                             hint: "export \(name) in the CI job's secret settings; never pass it as an argument")
        }
        redactor.register(value, name: name)
        return Secret(name: name, value: value)
    }

    /// The names among `names` that are unset or empty, in the order given.
    public func missing(_ names: [String]) -> [String] {
        names.filter { (variables[$0] ?? "").isEmpty }
    }

    public var description: String { "Environment(\(variables.count) variables)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["count": variables.count]) }
}
