import LanesRuntime

/// The action map and the step catalog as dictionaries, built once: the importer asks them for every
/// call and every name, and their own lookups walk lists (and `Step.info` reflects on each call),
/// which made importing a large Fastfile spend most of its time asking.
enum CatalogLookup {
    static let actions: [String: FastlaneAction] = {
        var byName: [String: FastlaneAction] = [:]
        for action in FastlaneActionMap.all {
            for name in action.names where byName[name] == nil { byName[name] = action }
        }
        return byName
    }()

    static let steps: [String: StepInfo] = {
        // As `StepCatalog.step(id:)`: an id first, then an alias.
        let infos = StepCatalog.builtIn.map { $0.info }
        var byID: [String: StepInfo] = [:]
        for info in infos where byID[info.definition.id] == nil { byID[info.definition.id] = info }
        for info in infos {
            for alias in info.definition.aliases where byID[alias] == nil { byID[alias] = info }
        }
        return byID
    }()

    static let stepFunctionNames: Set<String> = Set(StepCatalog.builtIn.map { $0.definition.functionName })

    static func action(named name: String) -> FastlaneAction? { actions[name] }
}
