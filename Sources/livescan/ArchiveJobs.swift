import Foundation
import LiveScan

/// How many inputs an archive scan runs at once when `--jobs` is not given.
enum ArchiveJobs {
    /// The most a scan that reads text holds at its peak (391-403 MB measured over photos and 720p video, see the
    /// README), with room to spare: jobs beyond memory would swap, which costs more than they gain.
    static let bytesPerScan: UInt64 = 512 << 20

    /// One scan per core at `fast` and `balanced`, one per two cores at `accurate`, and never more than memory holds
    /// (`bytesPerScan` each), at least 1. A `fast` or `balanced` scan of a video keeps about one core busy (its
    /// read-ahead decoder and the text detector's turns overlap the frame loop, which waits for them as often as not:
    /// user + system time over wall time measured 0.8-1.0), so one per core fills the machine without scans queueing
    /// for it. `accurate` reads whole frames on its read-ahead, one frame per core, so a single scan already uses
    /// more than one core; two per core would only make them take turns.
    static func defaultCount(quality: QualityLevel, cores: Int = ProcessorCores.usable(),
                             memory: UInt64 = ProcessInfo.processInfo.physicalMemory) -> Int {
        let byCores = quality == .accurate ? cores / 2 : cores
        let byMemory = Int(min(memory / bytesPerScan, UInt64(Int.max)))
        return max(1, min(byCores, byMemory))
    }
}
