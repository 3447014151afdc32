import Glibc

/// How glibc's allocator serves the large blocks of a scan that reads text: the command sets it for its own process
/// once, before the scan; the library changes no process-wide state, and an app embedding it may do the same
/// (mallopt(3), or `GLIBC_TUNABLES=glibc.malloc.mmap_threshold=...:glibc.malloc.trim_threshold=...:
/// glibc.malloc.arena_max=...`). A barcodes-only scan keeps glibc's own policy. Measured: docs/benchmark-history.md,
/// "The mmap threshold".
enum AllocatorTuning {
    /// Still images: blocks of 128 KB and more are mapped for themselves and returned when freed. glibc raises its
    /// threshold to the largest block freed, and the text detector's buffers (made and freed for each picture) would
    /// then come from the heap, which keeps what is freed: peak RSS over ICDAR's 48 photos 478 -> 395 MB.
    static let stills = Policy(mmapThreshold: 128 * 1024)

    /// A video, a camera or a stream frees a frame's pixels every frame (2.7 MB at 720p), and the locator's and the
    /// reading cache's pictures of it. Mapped for themselves, each came back as fresh pages to fault in and zero, and
    /// the heap's top was trimmed after each: 12-13 s of kernel time over ICDAR's drifting 720p video (75 s). Blocks
    /// up to 4 MB come from the heap, which keeps up to 8 MB (a few frames) free at its top; the networks' buffers
    /// (hundreds of MB) are still mapped. Two arenas, one for each of the threads that work (the frame loop, the
    /// detector's turns): glibc's default of 8 a core kept 409 MB at peak, one arena made the threads wait for it.
    /// 4 s of kernel time, 26-28 -> 30-32 fps, peak RSS 350 -> 360-366 MB (at 1080p 373 -> 387 MB).
    static let motion = Policy(mmapThreshold: 4 * 1024 * 1024, trimThreshold: 8 * 1024 * 1024, arenas: 2)

    /// What glibc is told: each setting nil stays glibc's own.
    struct Policy: Equatable {
        var mmapThreshold: Int32
        var trimThreshold: Int32?
        var arenas: Int32?
    }

    /// The policy for a scan of `sources` (SOURCE arguments) that reads text when `readsText`; nil (glibc's own)
    /// when it does not. The stills' when every source is an image or a folder of them (`SourceKind`; an archive
    /// scan gives each input to a scan process of its own, which sets its own).
    static func policy(readsText: Bool, sources: [String]) -> Policy? {
        guard readsText else { return nil }
        if sources.allSatisfy({ SourceKind.of($0) == .image }) {
            return stills
        }
        return motion
    }

    /// Sets the process's policy (`policy`), once, before the scan.
    static func tune(readsText: Bool, sources: [String]) {
        guard let policy = policy(readsText: readsText, sources: sources) else { return }
        _ = mallopt(mmapThresholdParameter, policy.mmapThreshold)
        if let trimThreshold = policy.trimThreshold {
            _ = mallopt(trimThresholdParameter, trimThreshold)
        }
        if let arenas = policy.arenas {
            _ = mallopt(arenaMaxParameter, arenas)
        }
    }

    /// malloc.h's M_MMAP_THRESHOLD, M_TRIM_THRESHOLD and M_ARENA_MAX, which Swift's Glibc module does not import.
    private static let mmapThresholdParameter: Int32 = -3
    private static let trimThresholdParameter: Int32 = -1
    private static let arenaMaxParameter: Int32 = -8
}

/// glibc's mallopt(3), which Swift's Glibc module does not import.
@_silgen_name("mallopt") private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
