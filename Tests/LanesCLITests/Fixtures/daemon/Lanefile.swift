import Lanes

let lanes = Lanefile {
    Lane("tick", "Every minute, then waits") {
        print("tick")
        try await Task.sleep(nanoseconds: 600_000_000_000)
    }
    .schedule("* * * * *")
}
