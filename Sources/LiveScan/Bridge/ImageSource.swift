import Foundation

/// Frames from still images: one file, or every image in a folder in name order. Each image is one
/// frame, named by its file (`Frame.file`); media time is the frame index (one second per image). Images share
/// nothing: the scanner ends every item of an image with it (`FrameSource.holdsStillImages`).
/// In a folder, an image that does not decode is skipped and listed in `unreadableImages`: one bad file
/// does not stop the scan of the others. (An image sequence, `shot_%04d.png`, is read through it by `VideoSource`.)
public final class ImageSource: FrameSource, @unchecked Sendable {
    /// File extensions read as images (OpenCV's imread codecs on Debian 12).
    public static let imageExtensions = Set(["png", "jpg", "jpeg", "bmp", "tif", "tiff", "webp"])
        .union(netpbmExtensions)
    /// Netpbm's: bitmap, graymap, pixmap and any of them.
    public static let netpbmExtensions: Set<String> = ["pbm", "pgm", "ppm", "pnm"]

    /// The most pixels an image may announce before it is refused undecoded: 100 megapixels, a 12000 x 8000
    /// photo with room to spare, at about 300 MB decoded.
    public static let defaultMaxPixels = 100_000_000

    public let info: SourceInfo
    /// The files this source reads, in order.
    public let paths: [String]
    /// Images of a folder that could not be decoded, with the reason, in the order they were met.
    public private(set) var unreadableImages: [ScanError] = []
    private var nextIndex = 0
    private var framesMade = 0
    /// The first image, decoded early so that `info` knows its size before scanning starts.
    private var firstImage: (path: String, image: FrameImage)?

    private let maxPixels: Int

    /// One image file, or a folder whose images are read in name order. An image that announces more than
    /// `maxPixels` pixels (0 = no limit) is refused before it is decoded, as an unreadable one is.
    public convenience init(path: String, maxPixels: Int = ImageSource.defaultMaxPixels) throws {
        var isDirectory = false
        guard FileNames.exists(path, isDirectory: &isDirectory) else {
            try VideoSource.checkReadableFile(path)  // says why: a link loop, permission...
            throw ScanError.sourceUnavailable(source: path, reason: "no such file or folder")
        }
        var paths = [path]  // decode(_:) checks it is a readable file, and the one failure is thrown below
        if isDirectory {
            guard let names = FileNames.namesInFolder(path) else {
                throw ScanError.sourceUnavailable(source: path, reason: "the folder cannot be listed")
            }
            paths = names.filter { ImageSource.isImagePath($0) }.sorted()
                .map { URL(fileURLWithPath: path).appendingPathComponent($0).path }
            guard !paths.isEmpty else {
                throw ScanError.sourceUnavailable(
                    source: path, reason: "the folder holds no images (\(ImageSource.extensionList))")
            }
        }
        try self.init(name: path, paths: paths, maxPixels: maxPixels)
    }

    /// One image from `data`, an image file's bytes (what a pipe gave), as the source `name` (the command's `-`:
    /// standard input). Throws as `FrameImage(encoded:name:maxPixels:)` does; a truncated one is scanned for what
    /// decoded and listed in `unreadableImages`.
    public init(encoded data: Data, name: String, maxPixels: Int = ImageSource.defaultMaxPixels) throws {
        self.maxPixels = maxPixels
        paths = [name]
        let image = try FrameImage(encoded: data, name: name, maxPixels: maxPixels)
        if image.isTruncated {
            unreadableImages.append(.sourceDamaged(source: name, reason: "the image is truncated (cut short); "
                + "what decoded was scanned"))
        }
        firstImage = (name, image)
        nextIndex = 1
        info = SourceInfo(name: name, width: image.width, height: image.height, framesPerSecond: 0, frameCount: 1)
    }

    /// The images at `paths`, read in that order (a folder's, an image sequence's files), as the source `name`.
    init(name: String, paths: [String], maxPixels: Int) throws {
        self.maxPixels = maxPixels
        self.paths = paths
        var width = 0, height = 0
        while nextIndex < paths.count, firstImage == nil {
            if let image = ImageSource.decode(paths[nextIndex], maxPixels: maxPixels, failures: &unreadableImages) {
                firstImage = (paths[nextIndex], image)
                width = image.width
                height = image.height
            }
            nextIndex += 1
        }
        if firstImage == nil, let failure = unreadableImages.last {
            throw paths.count == 1 && paths[0] == name ? failure
                : ScanError.sourceUnavailable(source: name, reason: "none of its \(paths.count) images is readable")
        }
        info = SourceInfo(name: name, width: width, height: height, framesPerSecond: 0, frameCount: paths.count)
    }

    /// The image at `path`, or nil with the reason in `unreadableImages`. A truncated file is scanned for what
    /// decoded and listed there too.
    private static func decode(_ path: String, maxPixels: Int, failures unreadableImages: inout [ScanError])
        -> FrameImage? {
        do {
            try VideoSource.checkReadableFile(path)
            let image = try FrameImage(contentsOf: path, maxPixels: maxPixels)
            if image.isTruncated {
                unreadableImages.append(.sourceDamaged(source: path, reason: "the file is truncated (cut short); "
                    + "what decoded was scanned"))
            }
            return image
        } catch {
            unreadableImages.append(error as? ScanError ?? .sourceUnavailable(source: path, reason: "\(error)"))
            return nil
        }
    }

    /// True when the path's extension names an image format.
    public static func isImagePath(_ path: String) -> Bool {
        imageExtensions.contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    /// True when the file at `path` begins as an image OpenCV's imread decodes begins (PNG, JPEG, BMP, TIFF, WebP,
    /// Netpbm), whatever its name: `qr.dat` saved from a PNG is an image. Reads the first 12 bytes of a regular file
    /// only: opening a FIFO would wait for its writer. False for anything that cannot be read.
    public static func holdsImage(atPath path: String) -> Bool {
        guard let status = FileNames.status(path), status.st_mode & S_IFMT == S_IFREG else { return false }
        let descriptor = FileNameBytes.withCName(path) { Foundation.open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else { return false }
        defer { Foundation.close(descriptor) }
        var head = [UInt8](repeating: 0, count: 12)
        let count = head.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, 12) }
        guard count >= 3 else { return false }
        let bytes = Array(head.prefix(count))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count && Array(bytes[offset..<offset + signature.count]) == signature
        }
        let ascii = { (text: String) in [UInt8](text.utf8) }
        let netpbm = bytes[0] == UInt8(ascii: "P") && (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(bytes[1])
            && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[2])
        return starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) || starts([0xFF, 0xD8, 0xFF])
            || starts(ascii("BM")) || starts(ascii("II*\u{0}")) || starts(ascii("MM\u{0}*"))
            || starts(ascii("RIFF")) && starts(ascii("WEBP"), at: 8) || netpbm
    }

    static var extensionList: String { imageExtensions.sorted().joined(separator: ", ") }

    public func nextFrame() throws -> Frame? {
        if let first = firstImage {
            firstImage = nil
            return makeFrame(first.image, file: first.path)
        }
        while nextIndex < paths.count {
            let path = paths[nextIndex]
            nextIndex += 1
            if let image = ImageSource.decode(path, maxPixels: maxPixels, failures: &unreadableImages) {
                return makeFrame(image, file: path)
            }
        }
        return nil
    }

    private func makeFrame(_ image: FrameImage, file: String) -> Frame {
        defer { framesMade += 1 }
        return Frame(image: image, index: framesMade, time: Double(framesMade), file: file)
    }
}
