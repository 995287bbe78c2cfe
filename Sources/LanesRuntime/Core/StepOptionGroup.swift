/// Options declared once for several steps (fastlane match's storage options, for example): a
/// struct of `@StepOption` properties that each step holds as a property. Its options resolve with
/// the step's and count as the step's own in `Step.info`, the generated functions and the docs.
public protocol StepOptionGroup: Sendable {
    init()
}

/// A step's options as its properties declare them, those of option groups included, in order.
enum OptionReflection {
    static func options(of value: Any) -> [OptionInfo] {
        Mirror(reflecting: value).children.flatMap { child -> [OptionInfo] in
            // Options first: each cast to a protocol a type does not conform to scans every
            // conformance record of the process (`lanes actions` asks for every step's options).
            guard var info = (child.value as? any OptionDeclaration)?.info else {
                if let group = child.value as? any StepOptionGroup { return options(of: group) }
                return []
            }
            // The wrapper's storage is named `_property`.
            info.swiftName = String((child.label ?? "").drop { $0 == "_" })
            return [info]
        }
    }
}
