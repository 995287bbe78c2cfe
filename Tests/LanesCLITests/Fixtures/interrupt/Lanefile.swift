import Lanes

let lanes = Lanefile {
    Lane("wait", "Runs until interrupted") {
        try await sh("sh", "-c", "echo started; touch lane-started; sleep 120")
    }
    Finally { lane in try echo("finally \(lane) ran") }
}
