import Foundation
import LanesCron
import LanesSchedule
import LanesTestSupport
import Testing

/// Issue 21: the live log reads from where its reader is, not the whole file on every poll. A
/// running run's log of 64 MiB is followed by `lanes serve` while lines are appended; the bytes
/// the server process reads (`rchar` of /proc/PID/io, every read and pread it makes) stay far
/// below one reading of the log, where a re-read from 0 every 200 ms would read it again and again.
@Suite(.serialized) struct LiveLogOffsetTests {
    static func bytesRead(by pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix("rchar:") }.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) }
    }

    @Test(.enabled(if: FileManager.default.isReadableFile(atPath: "/proc/self/io")))
    func followingALongLogReadsOnlyWhatWasAppended() throws {
        let project = try WebProject()
        let store = try project.store()
        let id = try #require(try store.record([NewRun(lane: "slow", trigger: .manual, scheduled: nil, status: .starting)], cursors: [:]).first)
        let folder = "\(project.logs)/\(id)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let logPath = folder + "/output.log"
        let line = Array(("compiling Sources/App/View.swift " + String(repeating: "x", count: 90) + "\n").utf8)
        var history: [UInt8] = []
        history.reserveCapacity(64 << 20)
        while history.count < 64 << 20 { history += line }
        try Data(history).write(to: URL(fileURLWithPath: logPath))
        // The test process stands in for the lane's process: alive for as long as the run is followed.
        try store.markRunning([StartedRun(id: id, processID: getpid(), started: SystemCronClock().now(), logPath: logPath, folder: folder)])

        let server = try WebProject.Server(project: project)
        defer { server.stop() }
        let client = try ServerLimitTests.dial(server.port)
        defer { close(client) }
        ServerLimitTests.transmit(client, "GET /runs/\(id)/events?offset=\(history.count) HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: lanes_token=\(server.token)\r\n\r\n")
        var received = ""
        func receive(until text: String) -> Bool {
            let deadline = Date().addingTimeInterval(20)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !received.contains(text), Date() < deadline {
                let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                received += String(decoding: buffer[..<count], as: UTF8.self)
            }
            return received.contains(text)
        }
        try #require(receive(until: "text/event-stream"), "\(received)")
        let before = try #require(Self.bytesRead(by: server.process.processIdentifier))
        let log = try #require(FileHandle(forWritingAtPath: logPath))
        defer { try? log.close() }
        log.seekToEndOfFile()
        // Ten lines, each waited for: the stream polls several times while they come.
        for tick in 1...10 {
            log.write(Data("tick \(tick)\n".utf8))
            #expect(receive(until: "data: tick \(tick)\n"), "tick \(tick) never came: \(received.suffix(300))")
        }
        let read = try #require(Self.bytesRead(by: server.process.processIdentifier)) - before
        #expect(!received.contains("compiling"), "lines before the offset were sent")
        #expect(read < 8 << 20, "lanes serve read \(read) bytes to follow 10 short lines of a \(history.count)-byte log")
        try store.finish(id: id, status: .succeeded, exitStatus: 0, ended: SystemCronClock().now())
    }
}
