/// `lanes list --json`: the Lanefile's lanes as values (names, descriptions, options, the names of
/// the variables and secrets they need, their triggers), never their values, so nothing here can
/// carry a secret. Written by the runner; read by `lanes schedule`, `lanes daemon`, `lanes export`
/// and the CLI's project survey through these types.
public struct LaneListingRecord: Sendable, Equatable, Codable {
    /// `WireSchema.version` of the writer.
    public var schema: Int
    public var lanes: [Lane]

    public init(schema: Int = WireSchema.version, lanes: [Lane]) {
        self.schema = schema
        self.lanes = lanes
    }

    public struct Lane: Sendable, Equatable, Codable {
        public var name: String
        public var description: String
        public var options: [Option]
        /// Names of the variables the lane declares.
        public var environment: [String]
        /// Names of the secrets it needs.
        public var secrets: [String]
        public var tools: [String]
        /// Each trigger parsed, with the minute and hour `H` resolved to and the next run.
        public var schedules: [Schedule]
        public var triggers: Triggers

        public init(name: String, description: String, options: [Option], environment: [String], secrets: [String], tools: [String],
                    schedules: [Schedule], triggers: Triggers) {
            self.name = name
            self.description = description
            self.options = options
            self.environment = environment
            self.secrets = secrets
            self.tools = tools
            self.schedules = schedules
            self.triggers = triggers
        }
    }

    public struct Option: Sendable, Equatable, Codable {
        public var name: String
        public var type: String
        public var summary: String
        /// The environment variable it falls back to.
        public var env: String?
        public var secret: Bool
        public var required: Bool
        public var `default`: String?

        public init(name: String, type: String, summary: String, env: String?, secret: Bool, required: Bool, default: String?) {
            self.name = name
            self.type = type
            self.summary = summary
            self.env = env
            self.secret = secret
            self.required = required
            self.default = `default`
        }
    }

    public struct Schedule: Sendable, Equatable, Codable {
        /// `schedule` (a timer) or `poll_scm`.
        public var kind: String
        public var spec: String
        public var seed: String
        /// Per schedule line, the resolved minutes and hours, `;`-separated.
        public var minute: String
        public var hour: String
        /// ISO 8601, or `never`.
        public var next: String

        public static let timer = "schedule"
        public static let pollSCM = "poll_scm"

        public init(kind: String, spec: String, seed: String, minute: String, hour: String, next: String) {
            self.kind = kind
            self.spec = spec
            self.seed = seed
            self.minute = minute
            self.hour = hour
            self.next = next
        }
    }

    /// The triggers as written: what `lanes schedule`, `lanes daemon` and `lanes export` schedule from.
    public struct Triggers: Sendable, Equatable, Codable {
        public var schedule: [String]
        public var pollSCM: [String]
        /// The name `H` is hashed from.
        public var hashSeed: String
        public var timeZone: String?

        public init(schedule: [String], pollSCM: [String], hashSeed: String, timeZone: String?) {
            self.schedule = schedule
            self.pollSCM = pollSCM
            self.hashSeed = hashSeed
            self.timeZone = timeZone
        }

        enum CodingKeys: String, CodingKey {
            case schedule
            case pollSCM = "poll_scm"
            case hashSeed = "hash_seed"
            case timeZone = "time_zone"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(schedule, forKey: .schedule)
            try container.encode(pollSCM, forKey: .pollSCM)
            try container.encode(hashSeed, forKey: .hashSeed)
            // Written as null, so a reader sees the lane has no zone of its own.
            if let timeZone { try container.encode(timeZone, forKey: .timeZone) } else { try container.encodeNil(forKey: .timeZone) }
        }
    }
}
