import Foundation
internal import CBridge

/// Frames from a video file or a stream URL (CBridge's own FFmpeg decoder), an image-sequence pattern
/// (`shot_%03d.png`) or a camera (V4L2; both through `cv::VideoCapture`).
public final class VideoSource: FrameSource, @unchecked Sendable {
    public let info: SourceInfo
    /// Cameras and streams: no end, no frame count, frames keep coming whether read or not.
    public let isLive: Bool
    public var isVideo: Bool { true }
    private let capture: OpaquePointer
    private var decodedFrames = 0
    private var previousTime = -Double.infinity

    /// Opens a video file or an image-sequence pattern (a path with `%`). Streams: `init(url:timeout:)`.
    public convenience init(path: String) throws {
        if !path.contains("%") {
            try VideoSource.checkReadableFile(path)
        }
        var capture: OpaquePointer?
        let status = FileNameBytes.withCName(path) { CB_Capture_open($0, &capture) }
        guard status == CB_OK, let capture else {
            let reason = MP4Inspection.truncationReason(path: path)
                ?? "not a video this build can decode (unknown format, corrupt or truncated)"
            throw ScanError.sourceUnavailable(source: path, reason: reason)
        }
        try self.init(capture: capture, name: path, isLive: false)
    }

    /// Opens camera `index` (`/dev/video<index>`, V4L2), asking for `width`x`height` at `fps`
    /// (nil = the camera's default).
    public convenience init(cameraIndex: Int, width: Int? = nil, height: Int? = nil, fps: Double? = nil) throws {
        let device = "/dev/video\(cameraIndex)"
        var capture: OpaquePointer?
        guard CB_Capture_open_camera(Int32(cameraIndex), Int32(width ?? 0), Int32(height ?? 0), fps ?? 0,
                                     &capture) == CB_OK, let capture else {
            throw ScanError.sourceUnavailable(source: device, reason: VideoSource.cameraProblem(device))
        }
        try self.init(capture: capture, name: device, isLive: true)
    }

    /// Opens a network stream (rtsp, http, tcp, udp, hls ... through FFmpeg); opening and every read give
    /// up after `timeout` seconds.
    public convenience init(url: String, timeout: Double = 5) throws {
        var capture: OpaquePointer?
        guard CB_Capture_open_stream(url, Int32(max(timeout, 0.001) * 1000), &capture) == CB_OK, let capture else {
            // FFmpeg's own words: "Connection refused", "Invalid data found when processing input", or the
            // deadline's "nothing arrived within N s".
            throw ScanError.sourceUnavailable(source: url, reason: "the stream did not open: " + bridgeLastError())
        }
        try self.init(capture: capture, name: url, isLive: true)
    }

    /// Why a camera would not open, in words a person can act on.
    static func cameraProblem(_ device: String) -> String {
        guard FileManager.default.fileExists(atPath: device) else {
            return "no such camera (see 'livescan sources')"
        }
        if access(device, R_OK | W_OK) != 0 {
            return "permission denied (add yourself to the 'video' group)"
        }
        return "the camera could not be opened: busy, or not a capture device"
    }

    private init(capture: OpaquePointer, name: String, isLive: Bool) throws {
        self.capture = capture
        var raw = CB_CaptureInfo()
        guard CB_Capture_info(capture, &raw) == CB_OK else {
            CB_Capture_delete(capture)
            throw ScanError.sourceUnavailable(source: name, reason: bridgeLastError())
        }
        self.isLive = isLive
        info = SourceInfo(name: name, width: Int(raw.width), height: Int(raw.height), framesPerSecond: raw.fps,
                          frameCount: raw.frame_count > 0 && !isLive ? Int(raw.frame_count) : nil)
    }

    deinit {
        CB_Capture_delete(capture)
    }

    public func nextFrame() throws -> Frame? {
        var image: OpaquePointer?
        var seconds = 0.0
        let status = CB_Capture_read(capture, &image, &seconds)
        guard status == CB_OK, let image else {
            // A stream or camera has no end: running out of frames means it stopped delivering.
            if isLive {
                throw ScanError.sourceDamaged(source: info.name, reason: "the source stopped delivering frames")
            }
            if status != CB_END_OF_STREAM {
                throw ScanError.sourceDamaged(source: info.name, reason: bridgeLastError())
            }
            // A container that announced more frames than decoded is cut short or corrupt. Container
            // frame counts can be estimates from the duration, so one frame of slack is allowed.
            if let announced = info.frameCount, decodedFrames < announced - 1 {
                throw ScanError.sourceDamaged(
                    source: info.name,
                    reason: "decoding stopped after frame \(decodedFrames) of \(announced): "
                        + "the file is truncated or corrupt")
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

    /// Throws `ScanError.sourceUnavailable` saying why `path` is not a regular file with something to read: no
    /// such file, a link loop, permission, a folder, a named pipe or device (reading one would wait, or never
    /// end), an empty file.
    static func checkReadableFile(_ path: String) throws {
        func unavailable(_ reason: String) -> ScanError { .sourceUnavailable(source: path, reason: reason) }
        guard let status = FileNames.status(path) else {
            switch errno {
            case ENOENT: throw unavailable("no such file")
            case ELOOP: throw unavailable("a loop of symbolic links, not a file")
            case EACCES: throw unavailable("permission denied")
            default: throw unavailable(String(cString: strerror(errno)))
            }
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw unavailable("is a folder, not a video")
        case S_IFIFO: throw unavailable("is a named pipe (FIFO), not a file; give a file, or a stream URL")
        case S_IFCHR, S_IFBLK: throw unavailable("is a device, not a file")
        case S_IFSOCK: throw unavailable("is a socket, not a file")
        default: throw unavailable("not a regular file")
        }
        guard FileNames.isAccessible(path, R_OK) else {
            throw unavailable("permission denied")
        }
        if status.st_size == 0 {
            throw unavailable("the file is empty (0 bytes)")
        }
    }
}
