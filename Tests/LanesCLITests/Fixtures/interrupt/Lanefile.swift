import Lanes

let lanes = Lanefile {
    Lane("wait", "Runs until interrupted") {
        try await sh("sh", "-c", "echo started; touch lane-started; sleep 120")
    }
    Lane("early", "Interrupts its own runner as its first step starts") {
        try await sh("sh", "-c", "kill -INT $PPID; sleep 60")
    }
    Finally { lane in try echo("finally \(lane) ran") }
}
