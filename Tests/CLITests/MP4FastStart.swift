import Foundation

/// Moves an MP4's index (`moov`) in front of its media data, as `ffmpeg -movflags faststart` does, so
/// that the first half of the file still decodes. OpenCV's writer always puts the index last.
enum MP4FastStart {
    struct Box {
        let type: String
        let range: Range<Int>
    }

    static func boxes(in data: Data, from start: Int, to end: Int) -> [Box] {
        var found: [Box] = []
        var offset = start
        while offset + 8 <= end {
            let size = Int(data[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            guard size >= 8, offset + size <= end else { break }
            found.append(Box(type: String(decoding: data[offset + 4..<offset + 8], as: UTF8.self),
                             range: offset..<offset + size))
            offset += size
        }
        return found
    }

    /// The same file with `moov` right after `ftyp` and every chunk offset moved by its size.
    static func rewrite(_ original: Data) throws -> Data {
        let data = Data(original)  // zero-based indices
        let top = boxes(in: data, from: 0, to: data.count)
        guard let ftyp = top.first, ftyp.type == "ftyp", let moov = top.first(where: { $0.type == "moov" }),
              let mdat = top.first(where: { $0.type == "mdat" }), mdat.range.lowerBound < moov.range.lowerBound
        else { throw CocoaError(.fileReadCorruptFile) }
        var index = Data(data[moov.range])
        shiftChunkOffsets(in: &index, within: 8..<index.count, by: moov.range.count)
        var result = Data(data[ftyp.range])
        result += index
        for box in top where box.type != "ftyp" && box.type != "moov" {
            result += data[box.range]
        }
        return result
    }

    private static func shiftChunkOffsets(in box: inout Data, within range: Range<Int>, by shift: Int) {
        let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "edts", "dinf"]
        for child in boxes(in: box, from: range.lowerBound, to: range.upperBound) {
            if containers.contains(child.type) {
                shiftChunkOffsets(in: &box, within: child.range.lowerBound + 8..<child.range.upperBound, by: shift)
            } else if child.type == "stco" || child.type == "co64" {
                let width = child.type == "stco" ? 4 : 8
                let countAt = child.range.lowerBound + 12
                let count = Int(box[countAt..<countAt + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
                for entry in 0..<count {
                    let at = countAt + 4 + entry * width
                    let value = box[at..<at + width].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } + UInt64(shift)
                    for byte in 0..<width {
                        box[at + byte] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - byte)))
                    }
                }
            }
        }
    }
}
