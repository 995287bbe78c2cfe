import Foundation
import LanesSchedule
import LanesTestSupport
import Testing

/// Issue 21: an empty or foreign `history.sqlite` is refused, never taken for a new history, and a
/// reader (the web page) never creates one.
@Suite(.timeLimit(.minutes(3))) struct HistoryFileTests {
    @Test func anEmptyHistoryFileIsRefused() throws {
        let directory = try temporaryDirectory("history-empty")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        FileManager.default.createFile(atPath: directory + "/history.sqlite", contents: Data())
        let error = #expect(throws: HistoryStoreError.self) { _ = try HistoryStore(directory: directory) }
        #expect(error?.message.contains("is empty, not a lanes history") == true, "\(String(describing: error))")
        #expect(try FileManager.default.attributesOfItem(atPath: directory + "/history.sqlite")[.size] as? Int == 0)
    }

    @Test func anotherProgramsDatabaseIsRefused() async throws {
        let directory = try temporaryDirectory("history-foreign")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/history.sqlite"
        let made = try await Program.run(["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table notes(x)'); c.commit()", path])
        try #require(made.status == 0, "\(made.output)")
        let error = #expect(throws: HistoryStoreError.self) { _ = try HistoryStore(directory: directory) }
        #expect(error?.message.contains("is not a lanes history") == true, "\(String(describing: error))")
    }

    @Test func aHistoryOfThisLanesStillOpens() throws {
        let directory = try temporaryDirectory("history-reopen")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try HistoryStore(directory: directory)
        _ = try HistoryStore(directory: directory)
        #expect(try HistoryStore.reading(directory: directory) != nil)
    }

    @Test func readingNeverCreatesAHistory() throws {
        let directory = try temporaryDirectory("history-reading")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try HistoryStore.reading(directory: directory) == nil)
        #expect(!FileManager.default.fileExists(atPath: directory + "/history.sqlite"))
    }
}
