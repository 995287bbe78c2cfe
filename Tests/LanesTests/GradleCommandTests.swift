import Testing
@testable import LanesRuntime

/// The Gradle command line: the task named as fastlane names it, properties as -P and -D, and a
/// secret-looking property only in the environment.
@Suite(.timeLimit(.minutes(3))) struct GradleCommandTests {
    @Test(arguments: [
        (("assemble", "Prod", "Release"), "assembleProdRelease"),
        (("assemble", "", "Release"), "assembleRelease"),
        // As fastlane: no case changed (Gradle itself matches bundlestagingdebug to bundleStagingDebug).
        (("bundle", "staging", "debug"), "bundlestagingdebug"),
        (("test", "", ""), "test"),
    ])
    func theTaskJoinsTaskFlavorAndBuildTypeAsWritten(parts: (String, String, String), expected: String) {
        let names = GradleCommand.taskNames(task: parts.0, flavor: parts.1.isEmpty ? nil : parts.1,
                                            buildType: parts.2.isEmpty ? nil : parts.2, tasks: ["ignored"])
        #expect(names == [expected])
    }

    @Test func tasksRunOnlyWhenNoTaskIsGiven() throws {
        #expect(GradleCommand.taskNames(task: nil, flavor: nil, buildType: nil, tasks: ["clean", "lint"]) == ["clean", "lint"])
        #expect(throws: LanesError.self) {
            try GradleCommand(program: "/p/gradlew", projectDirectory: "/p", tasks: [], properties: [], systemProperties: [],
                              flags: nil, serial: nil, isSecret: { _, _ in false })
        }
    }

    @Test func argumentsCarryPropertiesFlagsAndTasksButNoSecret() throws {
        let command = try GradleCommand(
            program: "/p/gradlew", projectDirectory: "/p", tasks: ["assembleRelease"],
            properties: ["versionCode=12", "storePassword=s3cr=et"], systemProperties: ["http.proxyHost=proxy"],
            flags: " --stacktrace  --info", serial: "emulator-5554", isSecret: { name, _ in name.contains("Password") })
        #expect(command.arguments == ["/p/gradlew", "-p", "/p", "-PversionCode=12", "-Dhttp.proxyHost=proxy",
                                      "--stacktrace", "--info", "assembleRelease"])
        #expect(command.environment == ["ORG_GRADLE_PROJECT_storePassword": "s3cr=et", "ANDROID_SERIAL": "emulator-5554"])
        #expect(!command.arguments.joined().contains("s3cr"))
    }

    @Test func aPropertyWithoutANameIsRefusedWithoutEchoingIt() throws {
        do {
            _ = try GradleCommand(program: "/p/gradlew", projectDirectory: "/p", tasks: ["build"], properties: ["hunter2"],
                                  systemProperties: [], flags: nil, serial: nil, isSecret: { _, _ in false })
            Issue.record("accepted a property without a name")
        } catch let error as LanesError {
            #expect("\(error)".contains("properties") && !"\(error)".contains("hunter2"))
        }
    }

    @Test func aRelativeGradlePathIsInsideTheProject() {
        #expect(GradleCommand.programPath(nil, projectDirectory: "/p") == "/p/./gradlew")
        #expect(GradleCommand.programPath("tools/gradle", projectDirectory: "/p") == "/p/tools/gradle")
        #expect(GradleCommand.programPath("/opt/gradle/bin/gradle", projectDirectory: "/p") == "/opt/gradle/bin/gradle")
    }
}
