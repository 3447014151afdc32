import Foundation

/// Frames from still images: one file, or every image in a folder in name order. Each image is one
/// frame; media time is the frame index (one second per image) so trackers never carry items across.
/// In a folder, an image that does not decode is skipped and listed in `unreadableImages`: one bad file
/// does not stop the scan of the others.
public final class ImageSource: FrameSource, @unchecked Sendable {
    /// File extensions read as images (OpenCV's imread codecs on Debian 12).
    public static let imageExtensions: Set<String> = [
        "png", "jpg", "jpeg", "bmp", "tif", "tiff", "webp", "pbm", "pgm", "ppm", "pnm",
    ]

    public let info: SourceInfo
    /// The files this source reads, in order.
    public let paths: [String]
    /// Images of a folder that could not be decoded, with the reason, in the order they were met.
    public private(set) var unreadableImages: [ScanError] = []
    private var nextIndex = 0
    private var framesMade = 0
    /// The first image, decoded early so that `info` knows its size before scanning starts.
    private var firstImage: (path: String, image: FrameImage)?

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
        var width = 0, height = 0
        while nextIndex < paths.count, firstImage == nil {
            if let image = try ImageSource.decode(paths[nextIndex], failures: &unreadableImages) {
                firstImage = (paths[nextIndex], image)
                width = image.width
                height = image.height
            }
            nextIndex += 1
        }
        if firstImage == nil, let failure = unreadableImages.last {
            throw paths.count == 1 ? failure
                : ScanError.sourceUnavailable(source: path, reason: "none of its \(paths.count) images is readable")
        }
        info = SourceInfo(name: path, width: width, height: height, framesPerSecond: 0, frameCount: paths.count)
    }

    private static func decode(_ path: String, failures: inout [ScanError]) throws -> FrameImage? {
        do {
            return try FrameImage(contentsOf: path)
        } catch {
            failures.append(.sourceUnavailable(source: path, reason: "not a readable image (corrupt or not an image)"))
            return nil
        }
    }

    /// True when the path's extension names an image format.
    public static func isImagePath(_ path: String) -> Bool {
        imageExtensions.contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    static var extensionList: String { imageExtensions.sorted().joined(separator: ", ") }

    public func nextFrame() throws -> Frame? {
        if let first = firstImage {
            firstImage = nil
            return makeFrame(first.image)
        }
        while nextIndex < paths.count {
            let path = paths[nextIndex]
            nextIndex += 1
            if let image = try ImageSource.decode(path, failures: &unreadableImages) {
                return makeFrame(image)
            }
        }
        return nil
    }

    private func makeFrame(_ image: FrameImage) -> Frame {
        defer { framesMade += 1 }
        return Frame(image: image, index: framesMade, time: Double(framesMade))
    }
}
