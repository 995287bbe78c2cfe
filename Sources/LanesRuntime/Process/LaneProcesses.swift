import Synchronization
internal import LanesPlatform

/// Every process group a lane's steps started, the lane's process tag, and the group endings in
/// progress. A lane must not exit while a group it asked to end still has its grace period to
/// run (the SIGKILL would never come), nor leave behind what its steps started: `finish` waits
/// for pending endings and ends every leftover, group members and tagged escapees alike.
final class LaneProcesses: Sendable {
    /// Time between SIGTERM and SIGKILL: time for xcodebuild to clean up.
    let grace: Duration
    /// Carried by every process this lane starts (see `ProcessTags`).
    let tag = ProcessTags.newTag()
    /// Whose clock the grace periods run on.
    let host: any Host
    private let groups = Mutex<Set<Int32>>([])
    private let pending = Mutex<[Task<Void, Never>]>([])
    private let lease = Mutex<TagLease?>(nil)

    init(grace: Duration = .seconds(3), host: any Host) {
        self.grace = grace
        self.host = host
    }

    /// Ends what lanes killed or crashed earlier left running in `directory`'s project (their
    /// leases are unlocked), then leases this lane's tag there. Returns how many processes ended.
    func takeOver(leasesIn directory: String) async -> Int {
        var ended = 0
        for tag in TagLease.abandonedTags(in: directory) {
            let leftovers = ProcessTags.processes(carrying: tag)
            guard !leftovers.isEmpty else { continue }
            ended += leftovers.count
            await ProcessGroup.end(groups: [], tagged: { ProcessTags.processes(carrying: tag) }, grace: grace, host: host)
        }
        let lease = TagLease(tag: tag, directory: directory)
        self.lease.withLock { $0 = lease }
        return ended
    }

    func started(group: Int32) {
        _ = groups.withLock { $0.insert(group) }
    }

    /// The group's first process was reaped. Its id is forgotten: once the group is empty the id
    /// may be reused by a stranger's group, so what the step left behind is found by its tag.
    func reaped(group: Int32) {
        _ = groups.withLock { $0.remove(group) }
    }

    /// Ends one step's group (led by `leader`) and the processes carrying its tag, in a task of its
    /// own (the step's own task is being cancelled), which `finish` waits for.
    func stop(group: Int32, leader: HostChild?, tag: String) {
        let grace = self.grace, host = self.host
        let ending = Task {
            await ProcessGroup.end(groups: [group], leaders: leader.map { [$0] } ?? [], tagged: { ProcessTags.processes(carrying: tag) },
                                   grace: grace, host: host)
        }
        pending.withLock { $0.append(ending) }
    }

    /// At the end of the lane: waits for the endings under way, then ends whatever the lane's
    /// steps left running (background processes, `setsid` sessions), with the same grace.
    func finish() async {
        for ending in pending.withLock({ $0 }) { await ending.value }
        let groups = self.groups.withLock { $0 }.filter(ProcessGroup.hasMembers)
        let tag = self.tag
        if !groups.isEmpty || !ProcessTags.processes(carrying: tag).isEmpty {
            await ProcessGroup.end(groups: Array(groups), tagged: { ProcessTags.processes(carrying: tag) }, grace: grace, host: host)
        }
        lease.withLock { lease in
            lease?.release()
            lease = nil
        }
    }

    /// A second Ctrl-C: SIGKILL to everything the lane started, at once.
    func killNow() {
        let tag = self.tag
        ProcessGroup.end(groups: Array(groups.withLock { $0 }), tagged: { ProcessTags.processes(carrying: tag) }, grace: 0)
    }
}
