import Lanes

let lanes = Lanefile {
    Lane("greet", "Print a greeting") {
        try await sh("sh", "-c", "echo hello")
    }
    Lane("release", "Needs a secret") {
        _ = try secret("CERTIFICATE_PASSWORD")
        try await sh("false")
    }
    Lane("broken", "Fails in its second step") {
        try await sh("sh", "-c", "echo first step")
        try await sh("sh", "-c", "echo about to fail; exit 3")
        try await sh("sh", "-c", "echo never runs")
    }
    Lane("nested", "Calls another lane") {
        try await callLane("greet")
    }
    Lane("dotenv", "Prints variables from the dotenv files") {
        try await sh("sh", "-c", "echo FROM_DEFAULT=$FROM_DEFAULT FROM_ENV=$FROM_ENV FROM_STAGING=$FROM_STAGING")
    }
    BeforeEach { lane in try echo("before \(lane)") }
    AfterSuccess { lane in try echo("success \(lane)") }
    OnError { lane, _ in try echo("error hook \(lane)") }
    Finally { lane in try echo("finally \(lane)") }
}
