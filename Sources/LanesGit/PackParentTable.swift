internal import Dispatch
internal import LanesPlatform

/// The parents of every commit stored whole in one pack, by index position, read on all cores.
///
/// Counting walks parent links one commit after another, so it cannot spread across cores;
/// reading each commit's header (the inflating, which is most of the work) can. This reads
/// every commit in the pack, reachable or not — in a clone nearly all are.
struct PackParentTable {
    enum State: UInt8 {
        /// Not a commit (a tree, blob or tag).
        case notCommit = 0
        /// A commit with at most two parents, both in this pack at `first` / `second` (-1: none).
        case resolved = 1
        /// Anything else (a delta, an octopus merge, a parent in another pack): ask libgit2.
        case unresolved = 2
    }

    private(set) var states: [State]
    private(set) var first: [Int32]
    private(set) var second: [Int32]

    init(pack: PackFile) {
        let count = pack.count
        var states = [State](repeating: .unresolved, count: count)
        var first = [Int32](repeating: -1, count: count)
        var second = [Int32](repeating: -1, count: count)
        let workers = max(1, min(4, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        states.withUnsafeMutableBufferPointer { states in
            first.withUnsafeMutableBufferPointer { first in
                second.withUnsafeMutableBufferPointer { second in
                    let output = Output(states: states, first: first, second: second)
                    // Each worker writes only the positions of its own stride.
                    DispatchQueue.concurrentPerform(iterations: workers) { worker in
                        Self.fill(pack, output, positions: stride(from: worker, to: count, by: workers))
                    }
                }
            }
        }
        self.states = states
        self.first = first
        self.second = second
    }

    /// The three output columns, written by disjoint strides from several threads.
    private struct Output: @unchecked Sendable {
        let states: UnsafeMutableBufferPointer<State>
        let first: UnsafeMutableBufferPointer<Int32>
        let second: UnsafeMutableBufferPointer<Int32>
    }

    private static func fill(_ pack: PackFile, _ output: Output, positions: StrideTo<Int>) {
        let inflater = HeaderInflater()
        var parents: [RawObjectID] = []
        parents.reserveCapacity(4)
        for position in positions {
            switch pack.commitParents(atPosition: position, inflater: inflater, into: &parents) {
            case .otherObject:
                output.states[position] = .notCommit
            case .unknown:
                output.states[position] = .unresolved
            case .commit:
                guard parents.count <= 2 else { continue }
                var slots: (Int32, Int32) = (-1, -1)
                var inThisPack = true
                for (slot, parent) in parents.enumerated() {
                    guard let found = pack.position(of: parent) else { inThisPack = false; break }
                    if slot == 0 { slots.0 = Int32(found) } else { slots.1 = Int32(found) }
                }
                guard inThisPack else { continue }
                output.first[position] = slots.0
                output.second[position] = slots.1
                output.states[position] = .resolved
            }
        }
    }
}
