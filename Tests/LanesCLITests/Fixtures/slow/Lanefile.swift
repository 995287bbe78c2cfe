import Lanes

let lanes = Lanefile {
    Lane("quick", "Prints a line") {
        try await sh("sh", "-c", "echo hello")
    }
    Lane("slow", "A step of six seconds") {
        try await sh("sh", "-c", "sleep 6; echo done")
    }
}
