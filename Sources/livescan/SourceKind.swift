import Foundation
import LiveScan

/// What a SOURCE argument is, from its spelling alone (before anything is opened): which options apply to it,
/// and how `ScanCommand` opens it.
enum SourceKind: String, CaseIterable {
    case image = "an image or a folder of images"
    case video = "a video file"
    case camera = "a camera"
    case stream = "a stream"

    static func of(_ path: String) -> SourceKind {
        if path == standardInput {
            return .image
        }
        if path.contains("://") {
            return .stream
        }
        if cameraIndex(path) != nil {
            return .camera
        }
        var isDirectory = false
        let exists = FileNames.exists(path, isDirectory: &isDirectory)
        // shot_%03d.png is an image sequence, which is read as a video. A missing `x.png` is an image too: among
        // image arguments it is one the scan of them reports, not a video that splits them into two scans. A file
        // under another name is an image when it holds one (`qr.dat`).
        if !path.contains("%") && (ImageSource.isImagePath(path)
            || exists && (isDirectory || ImageSource.holdsImage(atPath: path))) {
            return .image
        }
        return .video
    }

    /// The SOURCE that is one image read from standard input (`cat photo.png | livescan scan -`).
    static let standardInput = "-"

    /// `/dev/video2` is camera 2; so is a bare `2` when no file of that name exists.
    static func cameraIndex(_ path: String) -> Int? {
        if path.hasPrefix("/dev/video"), let index = Int(path.dropFirst("/dev/video".count)), index >= 0 {
            return index
        }
        var isDirectory = false
        if let index = Int(path), index >= 0, !FileNames.exists(path, isDirectory: &isDirectory) {
            return index
        }
        return nil
    }
}
