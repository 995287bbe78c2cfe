internal import CGit2

/// One pack (`objects/pack/pack-*.pack`) and its version-2 index, read directly so that the
/// commit counter can inflate only the few header lines of each commit.
///
/// `@unchecked Sendable`: after `init` it only reads its read-only memory maps, so threads may
/// share it.
final class PackFile: @unchecked Sendable {
    private let index: MappedFile
    private let pack: MappedFile
    /// Objects in the pack; positions `0..<count` follow the index's name order.
    let count: Int
    /// The pack's size in bytes.
    var byteCount: Int { pack.bytes.count }
    private let namesOffset = 8 + 256 * 4

    /// Opens `base.idx` and `base.pack`; nil when either is missing or not a format this reads.
    init?(base: String) {
        guard let index = MappedFile(path: base + ".idx"), let pack = MappedFile(path: base + ".pack"),
              index.bytes.count >= 8 + 256 * 4, index.uint32(at: 0) == 0xff74_4f63, index.uint32(at: 4) == 2,
              pack.bytes.count >= 12, pack.uint32(at: 0) == 0x5041_434b  // "PACK"
        else { return nil }
        let count = Int(index.uint32(at: 8 + 255 * 4))
        guard index.bytes.count >= 8 + 256 * 4 + count * 28 else { return nil }
        self.index = index
        self.pack = pack
        self.count = count
    }

    /// The repository's packs that this reads, by name.
    static func all(in repository: Repository) -> [PackFile] {
        let directory = String(cString: git_repository_commondir(repository.handle)) + "objects/pack/"
        return directoryEntries(directory).filter { $0.hasSuffix(".idx") }.sorted()
            .compactMap { PackFile(base: directory + $0.dropLast(4)) }
    }

    /// The object's position in the index, if this pack has it.
    func position(of id: RawObjectID) -> Int? {
        let bucket = id.firstByte
        var low = bucket == 0 ? 0 : Int(index.uint32(at: 8 + (bucket - 1) * 4))
        var high = min(Int(index.uint32(at: 8 + bucket * 4)), count)  // a damaged fan-out cannot read past the names
        let names = index.bytes.baseAddress! + namesOffset
        while low < high {
            let middle = (low + high) / 2
            let order = RawObjectID.compare(RawObjectID(bytes: names + middle * 20), id)
            if order == 0 { return middle }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// The name of the object at `position`.
    func id(at position: Int) -> RawObjectID {
        RawObjectID(bytes: index.bytes.baseAddress! + namesOffset + position * 20)
    }

    private func packOffset(at position: Int) -> Int? {
        let offsets = namesOffset + count * 24
        let small = index.uint32(at: offsets + position * 4)
        guard small & 0x8000_0000 != 0 else { return Int(small) }
        let large = offsets + count * 4 + Int(small & 0x7fff_ffff) * 8
        guard large + 8 <= index.bytes.count else { return nil }
        return Int(index.uint64(at: large))
    }

    /// What an entry turned out to be when its parents were asked for.
    enum Entry {
        /// A commit stored whole; its parents were read.
        case commit
        /// A tree, blob or tag stored whole.
        case otherObject
        /// A delta or an unreadable entry: ask libgit2.
        case unknown
    }

    /// Reads the parents of the commit at `position` from its inflated header lines.
    func commitParents(atPosition position: Int, inflater: HeaderInflater, into parents: inout [RawObjectID]) -> Entry {
        withWholeCommit(atPosition: position, inflater: inflater) { Self.parseParents($0, into: &parents) }
    }

    /// Reads the parents and the committer's time (what `git describe` orders its walk by) of the
    /// commit at `position`.
    func commitParentsAndTime(atPosition position: Int, inflater: HeaderInflater, into parents: inout [RawObjectID],
                              time: inout Int64) -> Entry {
        withWholeCommit(atPosition: position, inflater: inflater) { text in
            guard let complete = Self.parseParents(text, into: &parents) else { return nil }
            guard complete else { return false }
            guard let committed = Self.committerTime(text, after: 46 + parents.count * 48) else { return nil }
            time = committed
            return true
        }
    }

    /// Offers the inflated beginning of a commit stored whole to `parse` (see `HeaderInflater`).
    private func withWholeCommit(atPosition position: Int, inflater: HeaderInflater,
                                 _ parse: (UnsafeRawBufferPointer) -> Bool?) -> Entry {
        guard let offset = packOffset(at: position), offset < pack.bytes.count else { return .unknown }
        var cursor = offset
        var byte = pack.bytes[cursor]
        switch (byte >> 4) & 7 {
        case 1: break
        case 2, 3, 4: return .otherObject
        default: return .unknown  // OFS_DELTA / REF_DELTA: libgit2 resolves those
        }
        while byte & 0x80 != 0 {
            cursor += 1
            guard cursor < pack.bytes.count else { return .unknown }
            byte = pack.bytes[cursor]
        }
        let parsed = inflateHeader(from: cursor + 1, with: inflater, parse)
        return parsed ? .commit : .unknown
    }

    /// Inflates from `start` in small steps until `parse` has seen the end of the parent lines.
    private func inflateHeader(from start: Int, with inflater: HeaderInflater,
                               _ parse: (UnsafeRawBufferPointer) -> Bool?) -> Bool {
        inflater.inflate(UnsafeRawBufferPointer(rebasing: pack.bytes[start...]), parse)
    }

    /// The committer's time, read as git reads a commit's date: the line after the parents must be
    /// `author ...` and the next `committer ...`, whose seconds follow its last `>`
    /// (`committer Name <mail> 1700000000 +0100`). Nil when more text is needed; 0 when the lines
    /// are not there (git's date for such a commit).
    static func committerTime(_ text: UnsafeRawBufferPointer, after start: Int) -> Int64? {
        guard let authorEnd = text[start...].firstIndex(of: 10) else { return nil }
        guard text[start..<authorEnd].starts(with: "author".utf8) else { return 0 }
        guard let committerEnd = text[(authorEnd + 1)...].firstIndex(of: 10) else { return nil }
        let line = text[(authorEnd + 1)..<committerEnd]
        guard line.starts(with: "committer".utf8), let close = line.lastIndex(of: UInt8(ascii: ">")) else { return 0 }
        var index = close + 1
        while index < committerEnd, text[index] == UInt8(ascii: " ") { index += 1 }
        var value: Int64 = 0
        var digits = 0
        while index < committerEnd, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9"), digits < 18 {
            value = value * 10 + Int64(text[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        return value
    }

    /// Reads `tree <hex>\n(parent <hex>\n)*` and stops at the first other line. Returns nil
    /// when more text is needed, true when the parents are complete, false for malformed text.
    static func parseParents(_ text: UnsafeRawBufferPointer, into parents: inout [RawObjectID]) -> Bool? {
        parents.removeAll(keepingCapacity: true)
        guard text.count >= 46 else { return nil }
        guard text.starts(with: "tree ".utf8), text[45] == 10 else { return false }
        var position = 46
        let parentPrefix = Array("parent ".utf8)
        while true {
            guard position + 7 <= text.count else { return nil }
            guard text[position..<position + 7].elementsEqual(parentPrefix) else { return true }
            guard position + 48 <= text.count else { return nil }
            guard text[position + 47] == 10,
                  let parent = RawObjectID(hex: UnsafeRawBufferPointer(rebasing: text[(position + 7)..<(position + 47)]))
            else { return false }
            parents.append(parent)
            position += 48
        }
    }
}
