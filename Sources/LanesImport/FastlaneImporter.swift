import Foundation

/// What an import gives: the Lanefile's text, the report, and which Fastfile line each Lanefile
/// line came from (to point compiler errors at the Fastfile).
public struct ImportResult: Sendable {
    public let lanefile: String
    public var report: ImportReport
    public let lineMap: [Int: Int]

    /// Compiler diagnostics (`Lanefile.swift:12:5: error: ...`) with their Fastfile lines.
    public func mapCompilerOutput(_ output: String, lanefileName: String = "Lanefile.swift") -> [ImportReport.CompilerError] {
        var errors: [ImportReport.CompilerError] = []
        for line in output.split(separator: "\n") {
            guard let range = line.range(of: lanefileName + ":") else { continue }
            let rest = line[range.upperBound...]
            let fields = rest.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count >= 4, let number = Int(fields[0]), fields[2].trimmingCharacters(in: .whitespaces) == "error" else { continue }
            errors.append(ImportReport.CompilerError(lanefileLine: number, fastfileLine: lineMap[number],
                                                     message: fields[3].trimmingCharacters(in: .whitespaces)))
        }
        return errors
    }
}

/// Turns a fastlane folder into a Lanefile: `fastlane/Fastfile` (Ruby) or `fastlane/Fastfile.swift`,
/// with the Appfile, Matchfile, Gymfile, Scanfile, Deliverfile and Pluginfile beside it.
public enum FastlaneImporter {
    public struct ImportError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The folder holding the Fastfile for `path`: a project folder (with `fastlane/`), the fastlane
    /// folder itself, or a Fastfile.
    public static func fastlaneFolder(for path: String) throws -> (folder: String, fastfile: String) {
        var isDirectory: ObjCBool = false
        let manager = FileManager.default
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImportError(description: "\(path) does not exist")
        }
        if !isDirectory.boolValue { return ((path as NSString).deletingLastPathComponent, path) }
        for folder in [path + "/fastlane", path + "/.fastlane", path] {
            for name in ["Fastfile", "Fastfile.swift"] where manager.fileExists(atPath: folder + "/" + name) {
                return (folder, folder + "/" + name)
            }
        }
        throw ImportError(description: "no Fastfile in \(path)/fastlane, \(path)/.fastlane or \(path)")
    }

    /// Reads the Fastfile and the files beside it; never fails on their content.
    public static func importFolder(_ path: String) throws -> ImportResult {
        let (folder, fastfile) = try fastlaneFolder(for: path)
        guard let data = FileManager.default.contents(atPath: fastfile) else {
            throw ImportError(description: "cannot read \(fastfile)")
        }
        let text = String(decoding: data, as: UTF8.self)
        var configuration = FastlaneConfiguration()
        for name in ["Appfile", "Matchfile", "Gymfile", "Scanfile", "Deliverfile", "Pilotfile", "Snapfile", "Pluginfile"] {
            if let contents = FileManager.default.contents(atPath: folder + "/" + name) {
                ConfigurationFiles.read(name, String(decoding: contents, as: UTF8.self), into: &configuration)
            } else if name != "Pluginfile", let contents = FileManager.default.contents(atPath: folder + "/" + name + ".swift") {
                ConfigurationFiles.readSwift(name, String(decoding: contents, as: UTF8.self), into: &configuration)
            }
        }
        let displayName = (fastfile as NSString).lastPathComponent == "Fastfile.swift" ? "fastlane/Fastfile.swift" : "fastlane/Fastfile"
        if fastfile.hasSuffix(".swift") {
            return importSwift(text, configuration: configuration, source: displayName)
        }
        return importRuby(text, configuration: configuration, source: displayName)
    }

    /// A Ruby Fastfile's text.
    public static func importRuby(_ text: String, configuration: FastlaneConfiguration = FastlaneConfiguration(),
                                  source: String = "fastlane/Fastfile") -> ImportResult {
        let (statements, texts) = RubyParser.parseWithTexts(SwiftText.normalisingLineEnds(text))
        let (translator, lanefile, map) = translate(statements, texts: texts, text: text, configuration: configuration, source: source)
        var report = translator.report
        report.lostLanes = LaneCensus.lost(LaneCensus.rubyLanes(in: SwiftText.normalisingLineEnds(text)), imported: report.lanes)
        return ImportResult(lanefile: lanefile, report: report, lineMap: map)
    }

    /// Translates the tree; a second time when a shared `@name` was read before the translation
    /// reached what sets it (a method defined before the one that assigns it), with the kinds the
    /// first pass learnt.
    private static func translate(_ statements: [RubyNode], texts: [SourcePosition: String], text: String,
                                  configuration: FastlaneConfiguration, source: String) -> (FastfileTranslator, String, [Int: Int]) {
        var translator = FastfileTranslator(configuration: configuration, statementTexts: texts,
                                            editorOnlyLines: SwiftText.editorOnlyLineStarts(text))
        var (lanefile, map) = translator.translate(statements, source: source)
        if translator.sharedReadBeforeKnown, !translator.sharedKinds.isEmpty {
            var second = FastfileTranslator(configuration: configuration, statementTexts: texts,
                                            editorOnlyLines: SwiftText.editorOnlyLineStarts(text))
            second.knownSharedKinds = translator.sharedKinds
            (lanefile, map) = second.translate(statements, source: source)
            translator = second
        }
        return (translator, lanefile, map)
    }

    /// A Swift Fastfile's text (`class Fastfile: LaneFile`), read into the same tree as Ruby.
    public static func importSwift(_ text: String, configuration: FastlaneConfiguration = FastlaneConfiguration(),
                                   source: String = "fastlane/Fastfile.swift") -> ImportResult {
        let (statements, texts) = SwiftFastfileReader.read(SwiftText.normalisingLineEnds(text))
        let (translator, lanefile, map) = translate(statements, texts: texts, text: text, configuration: configuration, source: source)
        var report = translator.report
        report.lostLanes = LaneCensus.lost(LaneCensus.swiftLanes(in: SwiftText.normalisingLineEnds(text)), imported: report.lanes)
        return ImportResult(lanefile: lanefile, report: report, lineMap: map)
    }
}

/// The lanes a Fastfile defines, read line by line without the parser: what the Lanefile must have,
/// so a construct the parser misreads can never take lanes with it unnoticed.
enum LaneCensus {
    /// The names in `census` no imported lane has (fastlane's name, `ios beta` or `beta`).
    static func lost(_ census: [String], imported: [ImportReport.LaneEntry]) -> [String] {
        var names: Set<String> = []
        for lane in imported {
            names.insert(lane.fastlaneName)
            if let space = lane.fastlaneName.lastIndex(of: " ") { names.insert(String(lane.fastlaneName[lane.fastlaneName.index(after: space)...])) }
        }
        return census.filter { !names.contains($0) }
    }

    /// `lane :beta do`, `private_lane :"hotfix-start"`, `override_lane(:x)`.
    static func rubyLanes(in text: String) -> [String] {
        var names: [String] = []
        var inCommentBlock = false
        for line in text.split(separator: "\n") {
            // `=begin` ... `=end`: Ruby's block comment.
            if line.hasPrefix("=begin") { inCommentBlock = true }
            if inCommentBlock {
                if line.hasPrefix("=end") { inCommentBlock = false }
                continue
            }
            var rest = line.drop { $0 == " " || $0 == "\t" }
            guard let keyword = ["private_lane", "override_lane", "lane"].first(where: { rest.hasPrefix($0) }) else { continue }
            rest = rest.dropFirst(keyword.count)
            guard let next = rest.first, next == " " || next == "(" || next == "\t" else { continue }
            rest = rest.drop { $0 == " " || $0 == "(" || $0 == "\t" }
            guard rest.first == ":" else { continue }
            rest = rest.dropFirst()
            let name: Substring
            if let quote = rest.first, quote == "\"" || quote == "'" {
                name = rest.dropFirst().prefix { $0 != quote }
            } else {
                name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "?" || $0 == "!" }
            }
            if !name.isEmpty { names.append(String(name)) }
        }
        return names
    }

    /// `func betaLane(` or `func betaLane(withOptions`: fastlane's Swift lanes end in `Lane`.
    static func swiftLanes(in text: String) -> [String] {
        var names: [String] = []
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard let range = trimmed.range(of: "func ") else { continue }
            let before = trimmed[..<range.lowerBound]
            guard before.split(separator: " ").allSatisfy({ ["public", "private", "fileprivate", "internal", "override", "open", "@objc"].contains($0) }) else { continue }
            let name = trimmed[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            guard name.hasSuffix("Lane"), name.count > 4, trimmed[range.upperBound...].dropFirst(name.count).first == "(" else { continue }
            names.append(String(name.dropLast(4)))
        }
        return names
    }
}

/// The Appfile and the action config files: Ruby calls such as `app_identifier("com.example")` or
/// `scheme "App"`, read with the same parser as the Fastfile.
enum ConfigurationFiles {
    /// The values of a `for_lane`/`for_platform` block (nested `for_lane` inside `for_platform` too);
    /// returns how many statements were not plain values.
    private static func readAppfileScope(_ body: [RubyNode], scope: String, into configuration: inout FastlaneConfiguration) -> Int {
        var skipped = 0
        for statement in body {
            guard case .call(let call) = statement, call.receiver == nil else { skipped += 1; continue }
            if call.name == "for_lane", let block = call.block, let lane = call.arguments.first?.symbolText {
                skipped += readAppfileScope(block.body, scope: lane, into: &configuration)
            } else if call.block == nil, call.arguments.count == 1, let value = call.arguments[0].symbolText {
                configuration.laneAppfile[scope, default: [:]][call.name] = value
            } else {
                skipped += 1
            }
        }
        return skipped
    }

    /// `ENV["NAME"]` or `ENV.fetch("NAME")`, with or without a fallback.
    static func readsEnvironment(_ node: RubyNode) -> Bool {
        var found = false
        node.walk { inner in
            if case .index(.constant("ENV", _), _, _) = inner { found = true }
            if case .call(let call) = inner, call.name == "fetch", case .constant("ENV", _)? = call.receiver { found = true }
        }
        return found
    }

    /// The Swift config files (`Appfile.swift`, `Gymfile.swift`, ...): `var appIdentifier: String { return "com.example" }`,
    /// one value per line, named as fastlane's Swift protocols name the options.
    static func readSwift(_ name: String, _ text: String, into configuration: inout FastlaneConfiguration) {
        var pairs: [RubyPair] = []
        var skipped = 0
        for (index, rawLine) in SwiftText.normalisingLineEnds(text).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("var ") else { continue }
            let property = line.dropFirst(4).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            guard let open = line.range(of: "{"), let close = line.range(of: "}", options: .backwards), open.upperBound <= close.lowerBound else {
                skipped += 1
                continue
            }
            var body = line[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            if body.hasPrefix("return ") { body = String(body.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
            let position = SourcePosition(line: index + 1, column: 1)
            let value: RubyNode
            if body.count >= 2, body.hasPrefix("\""), body.hasSuffix("\""), !body.dropFirst().dropLast().contains("\""),
               !body.contains("\\") {
                value = .string([.text(String(body.dropFirst().dropLast()))], position)
            } else if body == "true" || body == "false" {
                value = .bool(body == "true", position)
            } else {
                skipped += 1
                continue
            }
            let key = swiftPropertyKey(String(property))
            if name == "Appfile" {
                if let text = value.symbolText, case .string = value { configuration.appfile[key] = text } else { skipped += 1 }
            } else {
                pairs.append(RubyPair(key: .symbol(key, position), value: value))
            }
        }
        if name != "Appfile", let action = FastlaneValues.configFiles[name] {
            configuration.defaults[action, default: []] += pairs
        }
        if skipped > 0 {
            configuration.notes.append("\(name).swift: \(skipped) value(s) are not plain literals and were not imported; check them by hand.")
        }
    }

    /// fastlane's Swift name of a setting as its Ruby name: `appleID` is `apple_id`, `itcTeam` is
    /// `itc_team_id` (AppfileProtocol), `outputDirectory` is `output_directory`.
    static func swiftPropertyKey(_ property: String) -> String {
        let special = ["appleID": "apple_id", "teamID": "team_id", "itcTeam": "itc_team_id", "itcTeamName": "itc_team_name",
                       "teamName": "team_name", "appIdentifier": "app_identifier", "gitURL": "git_url"]
        if let key = special[property] { return key }
        var key = ""
        var previousUpper = false
        for character in property {
            if character.isUppercase {
                if !key.isEmpty && !previousUpper { key += "_" }
                key += character.lowercased()
                previousUpper = true
            } else {
                key.append(character)
                previousUpper = false
            }
        }
        return key
    }

    static func read(_ name: String, _ text: String, into configuration: inout FastlaneConfiguration) {
        let statements = RubyParser.parse(SwiftText.normalisingLineEnds(text))
        if name == "Pluginfile" {
            for case .call(let call) in statements where call.name == "gem" {
                if let plugin = call.arguments.first?.symbolText { configuration.plugins.append(plugin) }
            }
            return
        }
        var pairs: [RubyPair] = []
        var skipped = 0
        for statement in statements {
            // The Appfile's `for_lane :beta do ... end` and `for_platform :ios do ... end`: values for those lanes.
            if name == "Appfile", case .call(let call) = statement, ["for_lane", "for_platform"].contains(call.name), let block = call.block,
               let scope = call.arguments.first?.symbolText {
                skipped += readAppfileScope(block.body, scope: call.name == "for_lane" ? scope : "platform " + scope, into: &configuration)
                continue
            }
            guard case .call(let call) = statement, call.receiver == nil, call.block == nil, call.arguments.count == 1, call.keywords.isEmpty else {
                skipped += 1
                continue
            }
            if name == "Appfile" {
                if let value = call.arguments[0].symbolText {
                    configuration.appfile[call.name] = value
                } else if Self.readsEnvironment(call.arguments[0]) {
                    configuration.computedAppfile[call.name] = call.arguments[0]
                } else {
                    skipped += 1
                }
            } else {
                pairs.append(RubyPair(key: .symbol(call.name, call.position), value: call.arguments[0]))
            }
        }
        if name != "Appfile", let action = FastlaneValues.configFiles[name] {
            configuration.defaults[action, default: []] += pairs
        }
        if skipped > 0 {
            configuration.notes.append("\(name): \(skipped) statement(s) are not plain `key value` settings (blocks, conditions or computed values) and were not imported; check them by hand.")
        }
    }
}
