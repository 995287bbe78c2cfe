#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BrewerKit

// brewer [MILLILITERS [METHOD]]: the recipe for a cup of that size, for one brewing method or for all.
let arguments = Array(CommandLine.arguments.dropFirst())
let methodNames = BrewMethod.allCases.map(\.rawValue).joined(separator: "|")

func fail(_ message: String) -> Never {
    let text = "brewer: \(message)\nusage: brewer [MILLILITERS [\(methodNames)]]\n"
    _ = Array(text.utf8).withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(64)
}

guard arguments.count <= 2 else { fail("too many arguments") }
let cupMilliliters = arguments.isEmpty ? 250 : Double(arguments[0]) ?? .nan
var methods = BrewMethod.allCases
if arguments.count == 2 {
    guard let method = BrewMethod(rawValue: arguments[1]) else { fail("unknown method '\(arguments[1])'") }
    methods = [method]
}

for method in methods {
    do {
        print(try Recipe(method: method, cupMilliliters: cupMilliliters).summary)
    } catch {
        fail("'\(arguments[0])' is not a positive number of milliliters")
    }
}
