import Foundation

/// Why an MP4 that FFmpeg refused might be unreadable, from its top-level boxes: the common case is a
/// file cut short while being written or copied, whose index (the `moov` box, written last by most
/// encoders) never arrived.
enum MP4Inspection {
    /// A reason to show the user, or nil when the file is not an MP4 or looks whole.
    static func truncationReason(path: String) -> String? {
        let descriptor = FileNameBytes.withCName(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)  // closed below
        defer { try? handle.close() }
        let fileSize = (try? handle.seekToEnd()) ?? 0
        var offset: UInt64 = 0
        var sawIndex = false
        var isMP4 = false
        while offset + 8 <= fileSize {
            try? handle.seek(toOffset: offset)
            guard let header = try? handle.read(upToCount: 16), header.count >= 8 else { break }
            var size = header.prefix(4).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if offset == 0 {
                guard type == "ftyp" else { return nil }
                isMP4 = true
            }
            if size == 1, header.count >= 16 {
                size = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            } else if size == 0 {
                size = fileSize - offset
            }
            guard size >= 8 else { break }
            if type == "moov" {
                sawIndex = offset + size <= fileSize
            }
            if offset + size > fileSize {
                return "the MP4 is truncated: its \(type) box needs \(offset + size) bytes, the file has \(fileSize)"
                    + (sawIndex ? "" : ", and its index (moov box) is missing, so no frame can be decoded")
            }
            offset += size
        }
        return isMP4 && !sawIndex ? "the MP4 has no index (moov box): it is truncated or was never finished" : nil
    }
}
