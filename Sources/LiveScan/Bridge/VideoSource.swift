import Foundation
internal import CBridge

/// Frames from a video file or a stream URL (CBridge's own FFmpeg decoder), an image-sequence pattern
/// (`shot_%03d.png`, its files read as stills) or a camera (V4L2, through `cv::VideoCapture`).
///
/// Every picture of a file or stream is held to a pixel limit (`ImageSource.defaultMaxPixels` unless told): one
/// whose container announces more is refused before anything is decoded, and a frame found larger later stops the
/// source with `ScanError.imageTooLarge` before it is decoded.
public final class VideoSource: FrameSource, @unchecked Sendable {
    public let info: SourceInfo
    /// Cameras and streams: no end, no frame count, frames keep coming whether read or not.
    public let isLive: Bool
    public var isVideo: Bool { true }
    /// The decoder of a file, stream or camera; nil for an image sequence.
    private let capture: OpaquePointer?
    /// The files of an image sequence, each checked and decoded as a still (`ImageSource`): a bad one is skipped
    /// and listed in `unreadableImages`, a named pipe among them refused unread.
    private let sequence: ImageSource?
    private var decodedFrames = 0
    private var previousTime = -Double.infinity

    /// Opens a video file or an image-sequence pattern (`shot_%04d.png`: one `%d`, `%0Nd` or `%Nd`, numbered from
    /// 0 or 1 up to the first number with no file). Streams: `init(url:timeout:maxPixels:)`. A picture of more than
    /// `maxPixels` pixels (0 = no limit) is refused (`ScanError.imageTooLarge`): the video when its container
    /// announces one, a frame of a sequence when its header does (skipped, as an unreadable one).
    public convenience init(path: String, maxPixels: Int = ImageSource.defaultMaxPixels) throws {
        if let files = try VideoSource.sequenceFiles(path) {
            self.init(sequence: try ImageSource(name: path, paths: files, maxPixels: maxPixels), name: path)
            return
        }
        try VideoSource.checkReadableFile(path)
        var capture: OpaquePointer?
        let status = FileNameBytes.withCName(path) { CB_Capture_open($0, Int64(max(maxPixels, 0)), &capture) }
        if status == CB_TOO_LARGE {
            throw ScanError.imageTooLarge(source: path, reason: bridgeLastError())
        }
        guard status == CB_OK, let capture else {
            let reason = MP4Inspection.truncationReason(path: path)
                ?? "not a video this build can decode (unknown format, corrupt or truncated)"
            throw ScanError.sourceUnavailable(source: path, reason: reason)
        }
        try self.init(capture: capture, name: path, isLive: false)
    }

    /// The files of the image sequence `pattern` names, as OpenCV's image-sequence reader numbers them: from 0 or
    /// 1 up to the first number with no file. nil when `pattern` is no sequence (a file name may hold a `%`).
    /// Throws when it is one but its first file is missing. The one rule for what a sequence's files are: the
    /// command's check that no output is an input asks it too.
    public static func sequenceFiles(_ pattern: String) throws -> [String]? {
        let parts = pattern.split(separator: "%", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        var specifier = Substring(parts[1])
        let zeroPadded = specifier.first == "0"
        if zeroPadded {
            specifier = specifier.dropFirst()
        }
        let digits = specifier.prefix { $0.isASCII && $0.isNumber }
        guard specifier.dropFirst(digits.count).first == "d", digits.count <= 2 else { return nil }
        let width = Int(digits) ?? 0
        let (prefix, suffix) = (String(parts[0]), String(specifier.dropFirst(digits.count + 1)))
        func file(_ number: Int) -> String {
            let digits = String(number)
            let padding = String(repeating: zeroPadded ? "0" : " ", count: max(width - digits.count, 0))
            return prefix + padding + digits + suffix
        }
        // lstat: any entry there counts, a named pipe or a dangling link too; ImageSource says what is wrong with it.
        func exists(_ path: String) -> Bool {
            var status = stat()
            return FileNameBytes.withCName(path) { lstat($0, &status) } == 0
        }
        var number = exists(file(0)) ? 0 : 1
        var files: [String] = []
        while exists(file(number)) {
            files.append(file(number))
            number += 1
        }
        guard !files.isEmpty else {
            throw ScanError.sourceUnavailable(source: pattern,
                                              reason: "no such image sequence (neither \(file(0)) nor \(file(1)))")
        }
        return files
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
    /// up after `timeout` seconds. Pictures of more than `maxPixels` pixels are refused, as for a file.
    public convenience init(url: String, timeout: Double = 5, maxPixels: Int = ImageSource.defaultMaxPixels) throws {
        var capture: OpaquePointer?
        let status = CB_Capture_open_stream(url, Int32(max(timeout, 0.001) * 1000), Int64(max(maxPixels, 0)), &capture)
        if status == CB_TOO_LARGE {
            throw ScanError.imageTooLarge(source: url, reason: bridgeLastError())
        }
        guard status == CB_OK, let capture else {
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

    private init(sequence: ImageSource, name: String) {
        capture = nil
        self.sequence = sequence
        isLive = false
        // One frame a second, as OpenCV's image-sequence reader reported it: media time is the frame's number.
        info = SourceInfo(name: name, width: sequence.info.width, height: sequence.info.height, framesPerSecond: 1,
                          frameCount: sequence.paths.count)
    }

    private init(capture: OpaquePointer, name: String, isLive: Bool) throws {
        self.capture = capture
        sequence = nil
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

    public var unreadableImages: [ScanError] { sequence?.unreadableImages ?? [] }

    /// The frames of a file or stream its decoder refused (`CB_Capture_undecodable_frames`): skipped, as ffmpeg skips
    /// them. An image sequence's bad files are in `unreadableImages` instead.
    public var undecodableFrames: Int {
        guard let capture else { return 0 }
        var count: Int64 = 0
        return CB_Capture_undecodable_frames(capture, &count) == CB_OK ? Int(count) : 0
    }

    public func nextFrame() throws -> Frame? {
        guard let capture else {
            return try sequence?.nextFrame()
        }
        var image: OpaquePointer?
        var seconds = 0.0
        let status = CB_Capture_read(capture, &image, &seconds)
        guard status == CB_OK, let image else {
            if status == CB_TOO_LARGE {
                throw ScanError.imageTooLarge(source: info.name, reason: "frame \(decodedFrames): " + bridgeLastError())
            }
            // A stream or camera has no end: running out of frames means it stopped delivering.
            if isLive {
                throw ScanError.sourceDamaged(source: info.name, reason: "the source stopped delivering frames")
            }
            if status != CB_END_OF_STREAM {
                throw ScanError.sourceDamaged(source: info.name, reason: bridgeLastError())
            }
            // A file that opened but holds no frame that decodes (a GIF cut after its header) is not an empty scan.
            if decodedFrames == 0 {
                throw ScanError.sourceDamaged(source: info.name,
                                              reason: "no frame of it decodes: the file is truncated or corrupt")
            }
            // A container that announced more frames than it held (decoded, or refused by the decoder and counted)
            // is cut short, or lost some of them where it is damaged. Container frame counts can be estimates from
            // the duration, so one frame of slack is allowed.
            let found = decodedFrames + undecodableFrames
            if let announced = info.frameCount, found < announced - 1 {
                throw ScanError.sourceDamaged(
                    source: info.name,
                    reason: "only \(found) of the \(announced) frames it announces were found: "
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
