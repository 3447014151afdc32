import Foundation

/// Writes what the scanner sees with every current item highlighted: its outline, coloured by kind (barcodes
/// green, text orange), and a label "<short id> <symbology or text> <value>". A video annotator encodes every
/// frame it is given (`cv::VideoWriter`, FFmpeg backend); an image annotator keeps the last frame and writes
/// it on `finish()`. Feed it from `DataScannerDelegate.dataScanner(_:didProcess:allItems:)`.
///
/// Outlines are drawn a few pixels outside each item (barcodes: clear of the quiet zone), and labels are placed
/// where they cover least of the other items, so the annotated output still scans (`CB_Image_copy_annotated`).
/// Labels are drawn in a Hershey font, which has ASCII only: other characters show as '?', and labels are cut
/// to 40 characters.
/// Safe to call from any thread; calls are serialised.
public final class Annotator: @unchecked Sendable {
    /// Extensions written as a single image (`cv::imwrite`): those LiveScan reads (`ImageSource.imageExtensions`)
    /// but the Netpbm ones, whose bitmap and graymap variants would drop the highlights' colour. Video extensions
    /// are .mp4, .mkv, .mov and .avi.
    public static let imageExtensions = ImageSource.imageExtensions.subtracting(ImageSource.netpbmExtensions)

    /// The file being written. It appears only when `finish()` succeeds: frames go to a hidden file beside it
    /// (`.<name>.livescan-<pid>-<n>.<ext>`), renamed into place at the end, so an existing file there, one
    /// being read meanwhile among them, is never cut short by a scan that fails or is stopped midway.
    public let path: String
    private let partialPath: String

    private enum Output {
        case video(VideoWriter)
        case image
    }

    private let output: Output
    private let lock = NSLock()
    private var lastImage: FrameImage?
    private var finished = false

    /// Annotates into a video at `path`, `fps` frames a second, every frame `width` x `height` pixels.
    /// The extension picks the codec: .mp4, .mkv, .mov H.264 (MPEG-4 Part 2 if H.264 is missing), .avi
    /// Motion JPEG. Throws `ScanError.invalidParameter` for another extension or a bad fps or size, and
    /// `ScanError.outputFailed` when the file cannot be created.
    public init(path: String, fps: Double, width: Int, height: Int) throws {
        self.path = path
        let partialPath = Annotator.partialPath(for: path)
        self.partialPath = partialPath
        do {
            output = .video(try VideoWriter(path: partialPath, fps: fps, width: width, height: height))
        } catch {
            unlink(partialPath)  // deinit does not run for an object that was never made
            if case let ScanError.outputFailed(_, reason) = error {
                throw ScanError.outputFailed(path: path, reason: reason)
            }
            throw error
        }
    }

    private init(imagePath: String) {
        path = imagePath
        partialPath = Annotator.partialPath(for: imagePath)
        output = .image
    }

    deinit {
        unlink(partialPath)  // left only by a scan that did not finish, or a rename that failed
    }

    private static let partialCounter = Counter()

    /// A hidden name beside `path` with the same extension, which picks the format.
    private static func partialPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = ".\(url.deletingPathExtension().lastPathComponent).livescan-\(getpid())-\(partialCounter.next())"
        return url.deletingLastPathComponent().appendingPathComponent(name).appendingPathExtension(url.pathExtension)
            .path
    }

    /// Runs `write`, whose failures name the hidden partial file, and names `path` instead: the file asked for.
    private func namingOutput(_ write: () throws -> Void) throws {
        do {
            try write()
        } catch ScanError.outputFailed(_, let reason) {
            throw ScanError.outputFailed(path: path, reason: reason)
        }
    }

    private func moveIntoPlace() throws {
        guard rename(partialPath, path) == 0 else {
            throw ScanError.outputFailed(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Annotates into one image at `path` (.png, .jpg, ...; see `imageExtensions`): the last frame given,
    /// written by `finish()`. Throws `ScanError.invalidParameter` for another extension and
    /// `ScanError.outputFailed` when the folder is missing, so a scan does not run only to fail at the end.
    public static func image(path: String) throws -> Annotator {
        try checkImagePath(path)
        return Annotator(imagePath: path)
    }

    /// Every extension an annotator writes: the videos first, then the images.
    public static var extensions: [String] { VideoWriter.extensions + imageExtensions.sorted() }

    /// Whether `path` has an extension an annotator writes, so that a scan is not run only to fail at the end.
    public static func isWritablePath(_ path: String) -> Bool {
        extensions.contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    /// Whether `path` names an image (`image(path:)`) rather than a video (`init(path:fps:width:height:)`).
    public static func isImagePath(_ path: String) -> Bool {
        imageExtensions.contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    /// Outlined on every frame (light blue, labelled) when set: the scanner's `regionOfInterest`.
    public var regionOfInterest: Bounds? {
        get { lock.withLock { region } }
        set { lock.withLock { region = newValue } }
    }
    private var region: Bounds?

    /// Draws `items` over `frame` and adds it: encoded now into a video, kept as the last frame for an image.
    public func add(frame: Frame, items: [RecognizedItem]) throws {
        let annotated = try Annotator.annotatedImage(frame: frame, items: items, regionOfInterest: regionOfInterest)
        try lock.withLock {
            guard !finished else {
                throw ScanError.outputFailed(path: path, reason: "the annotated output is already finished")
            }
            switch output {
            case .video(let writer):
                try namingOutput { try writer.write(annotated) }
            case .image:
                lastImage = annotated
            }
        }
    }

    /// Finishes the output: closes the video (its index is written last, so a video that was never finished
    /// does not play), or writes the last annotated frame as the image. Calling it again does nothing.
    public func finish() throws {
        try lock.withLock {
            guard !finished else { return }
            finished = true
            // Renamed into place only when the whole file was written: a write that failed (a full disk) leaves
            // the file there as it was, and the partial one is removed here, not left to deinit, which a command
            // that exits on the error may never run (the scan's threads can still hold the annotator then).
            do {
                switch output {
                case .video(let writer):
                    try namingOutput { try writer.close() }
                case .image:
                    guard let lastImage else {
                        throw ScanError.outputFailed(path: path, reason: "no frame was annotated")
                    }
                    self.lastImage = nil
                    try namingOutput { try lastImage.write(to: partialPath) }
                }
                try moveIntoPlace()
            } catch {
                unlink(partialPath)
                throw error
            }
        }
    }

    /// Writes `frame` with `items` highlighted as one image at `path` (the live listing's snapshot key).
    public static func snapshot(frame: Frame, items: [RecognizedItem], regionOfInterest: Bounds? = nil,
                                to path: String) throws {
        try checkImagePath(path)
        try annotatedImage(frame: frame, items: items, regionOfInterest: regionOfInterest).write(to: path)
    }

    /// A copy of the frame's picture with `items` highlighted, and the region of interest outlined when given;
    /// the frame itself is left as it is.
    public static func annotatedImage(frame: Frame, items: [RecognizedItem], regionOfInterest: Bounds? = nil) throws
        -> FrameImage
    {
        let region = regionOfInterest.map { FrameAnnotation(bounds: $0, kind: .region, label: "region of interest") }
        return try frame.bridgeImage().annotated(with: (region.map { [$0] } ?? []) + items.map { item in
            let kind: FrameAnnotation.Kind
            switch item {
            case .barcode: kind = .barcode
            case .text: kind = .text
            }
            return FrameAnnotation(bounds: item.bounds, kind: kind, label: label(for: item))
        })
    }

    /// The label drawn beside an item: the first 8 hex digits of its id, its symbology (or "text") and its
    /// value, e.g. "0b7f3c2a qr https://example.com".
    public static func label(for item: RecognizedItem) -> String {
        "\(item.shortID) \(item.kindName) \(item.value)"
    }

    private static func checkImagePath(_ path: String) throws {
        guard isImagePath(path) else {
            let known = imageExtensions.sorted().map { "." + $0 }.joined(separator: ", ")
            throw ScanError.invalidParameter(parameter: "path",
                                             reason: "'\(path)' is not an image file name: use \(known)")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ScanError.outputFailed(path: path, reason: "no such folder: \(folder)")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw ScanError.outputFailed(path: path, reason: "permission denied")
        }
    }
}

/// Numbers the partial files of one process, so two annotators never share one.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
