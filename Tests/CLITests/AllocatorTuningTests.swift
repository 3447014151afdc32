import Foundation
import Testing
@testable import livescan

/// The command's allocator policy follows what a scan reads: glibc's own without text, the 128 KB mmap threshold for
/// still images read for text, the motion policy as soon as one source is a video, a camera or a stream.
@Suite struct AllocatorTuningTests {
    @Test func thePolicyFollowsTheSources() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("allocator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stills = AllocatorTuning.Policy(mmapThreshold: 128 * 1024)
        let motion = AllocatorTuning.Policy(mmapThreshold: 4 * 1024 * 1024, trimThreshold: 8 * 1024 * 1024, arenas: 2)

        #expect(AllocatorTuning.policy(readsText: false, sources: ["clip.mp4"]) == nil)
        #expect(AllocatorTuning.policy(readsText: false, sources: ["photo.png"]) == nil)
        #expect(AllocatorTuning.policy(readsText: true, sources: ["photo.png", folder.path, "-"]) == stills)
        for source in ["clip.mp4", "shot_%03d.png", "rtsp://127.0.0.1:8554/cam", "/dev/video0"] {
            #expect(AllocatorTuning.policy(readsText: true, sources: [source]) == motion, "\(source)")
            #expect(AllocatorTuning.policy(readsText: true, sources: ["photo.png", source]) == motion, "\(source)")
        }
    }
}
