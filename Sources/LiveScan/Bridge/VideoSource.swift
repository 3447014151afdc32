import Foundation
internal import CBridge

/// Frames from `cv::VideoCapture`: a video file, an image-sequence pattern (`shot_%03d.png`), a
/// stream URL (FFmpeg backend) or a camera (V4L2).
public final class VideoSource: FrameSource, @unchecked Sendable {
    public let info: SourceInfo
    private let capture: OpaquePointer
    private var decodedFrames = 0
    private var previousTime = -Double.infinity

    /// Opens a video file, an image-sequence pattern (a path with `%`) or a URL (with `://`).
    public convenience init(path: String) throws {
        if !path.contains("://") && !path.contains("%") {
            try VideoSource.checkReadableFile(path)
        }
        var capture: OpaquePointer?
        let status = CB_Capture_open(path, &capture)
        guard status == CB_OK, let capture else {
            let reason = MP4Inspection.truncationReason(path: path)
                ?? "not a video this build can decode (unknown format, corrupt or truncated)"
            throw ScanError.sourceUnavailable(source: path, reason: reason)
        }
        try self.init(capture: capture, name: path)
    }

    /// Opens camera `index` (`/dev/video<index>`).
    public convenience init(cameraIndex: Int) throws {
        var capture: OpaquePointer?
        guard CB_Capture_open_camera(Int32(cameraIndex), &capture) == CB_OK, let capture else {
            throw ScanError.sourceUnavailable(source: "camera \(cameraIndex)",
                                              reason: "no camera at /dev/video\(cameraIndex), or it is busy")
        }
        try self.init(capture: capture, name: "camera \(cameraIndex)")
    }

    private init(capture: OpaquePointer, name: String) throws {
        self.capture = capture
        var raw = CB_CaptureInfo()
        guard CB_Capture_info(capture, &raw) == CB_OK else {
            CB_Capture_delete(capture)
            throw ScanError.sourceUnavailable(source: name, reason: bridgeLastError())
        }
        info = SourceInfo(name: name, width: Int(raw.width), height: Int(raw.height), framesPerSecond: raw.fps,
                          frameCount: raw.frame_count > 0 ? Int(raw.frame_count) : nil)
    }

    deinit {
        CB_Capture_delete(capture)
    }

    public func nextFrame() throws -> Frame? {
        var image: OpaquePointer?
        var seconds = 0.0
        let status = CB_Capture_read(capture, &image, &seconds)
        guard status == CB_OK, let image else {
            if status != CB_END_OF_STREAM {
                throw ScanError.sourceDamaged(source: info.name, reason: bridgeLastError())
            }
            // A container that announced more frames than decoded is cut short or corrupt. Container
            // frame counts can be estimates from the duration, so one frame of slack is allowed.
            if let announced = info.frameCount, decodedFrames < announced - 1 {
                throw ScanError.sourceDamaged(
                    source: info.name,
                    reason: "decoding stopped after frame \(decodedFrames) of \(announced): the file is truncated or corrupt")
            }
            return nil
        }
        // Some containers report no timestamps; media time then follows the frame rate.
        var time = seconds
        if time <= previousTime, info.framesPerSecond > 0 {
            time = Double(decodedFrames) / info.framesPerSecond
        }
        previousTime = time
        defer { decodedFrames += 1 }
        return Frame(image: FrameImage(handle: image), index: decodedFrames, time: time)
    }

    static func checkReadableFile(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ScanError.sourceUnavailable(source: path, reason: "no such file")
        }
        if isDirectory.boolValue {
            throw ScanError.sourceUnavailable(source: path, reason: "is a folder, not a video")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ScanError.sourceUnavailable(source: path, reason: "permission denied")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if size == 0 {
            throw ScanError.sourceUnavailable(source: path, reason: "the file is empty (0 bytes)")
        }
    }
}
