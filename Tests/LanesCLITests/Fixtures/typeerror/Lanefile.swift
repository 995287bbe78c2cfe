import Lanes

let lanes = Lanefile {
    Lane("greet", "Print a greeting") {
        let count: Int = "three"
        try await sh("echo", "\(count)")
    }
}
