import Lanes

let lanes = Lanefile {
    Lane("wait", "Runs until interrupted") {
        try await sh("sh", "-c", "echo started; sleep 30")
    }
    Finally { lane in try echo("finally \(lane) ran") }
}
