import Foundation

/// Frames from still images: one file, or every image in a folder in name order. Each image is one
/// frame; media time is the frame index (one second per image) so trackers never carry items across.
public final class ImageSource: FrameSource, @unchecked Sendable {
    /// File extensions read as images (OpenCV's imread codecs on Debian 12).
    public static let imageExtensions: Set<String> = [
        "png", "jpg", "jpeg", "bmp", "tif", "tiff", "webp", "pbm", "pgm", "ppm", "pnm",
    ]

    public private(set) var info: SourceInfo
    /// The files this source reads, in order.
    public let paths: [String]
    private var nextIndex = 0

    /// One image file, or a folder whose images are read in name order.
    public init(path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ScanError.sourceUnavailable(source: path, reason: "no such file or folder")
        }
        if isDirectory.boolValue {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path)
            } catch {
                throw ScanError.sourceUnavailable(source: path, reason: "the folder cannot be listed")
            }
            paths = names.filter { ImageSource.isImagePath($0) }.sorted()
                .map { URL(fileURLWithPath: path).appendingPathComponent($0).path }
            guard !paths.isEmpty else {
                throw ScanError.sourceUnavailable(
                    source: path, reason: "the folder holds no images (\(ImageSource.extensionList))")
            }
        } else {
            try VideoSource.checkReadableFile(path)
            paths = [path]
        }
        info = SourceInfo(name: path, width: 0, height: 0, framesPerSecond: 0, frameCount: paths.count)
    }

    /// True when the path's extension names an image format.
    public static func isImagePath(_ path: String) -> Bool {
        imageExtensions.contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    static var extensionList: String { imageExtensions.sorted().joined(separator: ", ") }

    /// The path of the image the last returned frame came from.
    public var currentPath: String? { nextIndex > 0 ? paths[nextIndex - 1] : nil }

    public func nextFrame() throws -> Frame? {
        guard nextIndex < paths.count else { return nil }
        let path = paths[nextIndex]
        let index = nextIndex
        nextIndex += 1
        let image: FrameImage
        do {
            image = try FrameImage(contentsOf: path)
        } catch {
            throw ScanError.sourceDamaged(source: path, reason: "not a readable image (corrupt or not an image)")
        }
        if index == 0 {
            info.width = image.width
            info.height = image.height
        }
        return Frame(image: image, index: index, time: Double(index))
    }
}
