import Foundation
internal import CBridge

/// A decoded picture held by CBridge (`CB_Image`: 8-bit BGR, or a 4:2:0 video frame's planes as decoded; its grey
/// and its colour made on first use); freed when the last reference goes.
/// Immutable once made, so it is safe to share between threads.
public final class FrameImage: @unchecked Sendable {
    let handle: OpaquePointer

    /// Whether the file it was decoded from ends before its picture does (its missing part is grey).
    public let isTruncated: Bool

    init(handle: OpaquePointer, isTruncated: Bool = false) {
        self.handle = handle
        self.isTruncated = isTruncated
    }

    deinit {
        CB_Image_delete(handle)
    }

    /// Decodes an image file: PNG, JPEG, BMP, TIFF, WebP, PNM (`cv::imdecode`). Throws
    /// `ScanError.imageTooLarge` without decoding when its header announces more than `maxPixels` pixels
    /// (0 = no limit), `ScanError.sourceUnavailable` when it is not a readable image.
    public convenience init(contentsOf path: String, maxPixels: Int = ImageSource.defaultMaxPixels) throws {
        var image: OpaquePointer?
        var truncated: Int32 = 0
        let status = FileNameBytes.withCName(path) { CB_Image_open($0, Int64(maxPixels), &image, &truncated) }
        if status == CB_TOO_LARGE {
            throw ScanError.imageTooLarge(source: path, reason: bridgeLastError())
        }
        try check(status) { .sourceUnavailable(source: path, reason: $0) }
        guard let image else { throw ScanError.engineFailure("CB_Image_open returned no image") }
        self.init(handle: image, isTruncated: truncated != 0)
    }

    /// Decodes an image file's bytes held in memory (what a pipe gave: `livescan scan - < photo.png`), as
    /// `init(contentsOf:maxPixels:)` decodes a file (`CB_Image_decode`); `name` names it in errors.
    public convenience init(encoded data: Data, name: String, maxPixels: Int = ImageSource.defaultMaxPixels) throws {
        guard !data.isEmpty else {
            throw ScanError.sourceUnavailable(source: name, reason: "no image: it is empty")
        }
        var image: OpaquePointer?
        var truncated: Int32 = 0
        let status = data.withUnsafeBytes { bytes in
            CB_Image_decode(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, Int64(maxPixels), &image,
                            &truncated)
        }
        if status == CB_TOO_LARGE {
            throw ScanError.imageTooLarge(source: name, reason: bridgeLastError())
        }
        try check(status) { .sourceUnavailable(source: name, reason: $0) }
        guard let image else { throw ScanError.engineFailure("CB_Image_decode returned no image") }
        self.init(handle: image, isTruncated: truncated != 0)
    }

    /// Copies packed pixels: `channels` 1 (gray), 3 (BGR) or 4 (BGRA), `width * channels` bytes a row.
    public convenience init(pixels: [UInt8], width: Int, height: Int, channels: Int) throws {
        guard width > 0, height > 0, pixels.count >= width * height * channels else {
            throw ScanError.invalidParameter(parameter: "pixels", reason: "fewer bytes than width x height x channels")
        }
        var image: OpaquePointer?
        try pixels.withUnsafeBufferPointer { buffer in
            try check(CB_Image_new(buffer.baseAddress, Int32(width), Int32(height), Int32(channels),
                                   Int32(width * channels), &image)) {
                .invalidParameter(parameter: "pixels", reason: $0)
            }
        }
        guard let image else { throw ScanError.engineFailure("CB_Image_new returned no image") }
        self.init(handle: image)
    }

    public var width: Int { Int(CB_Image_width(handle)) }
    public var height: Int { Int(CB_Image_height(handle)) }
    /// The picture's outline, its corners named as it stands upright (a JPEG's Exif orientation applied): the box
    /// that reads the whole picture as one line.
    public var uprightOutline: Bounds { Bounds(CB_Image_upright_outline(handle)) }

    /// The pixels as 8-bit gray, `width * height` bytes, row by row.
    public func grayPixels() throws -> [UInt8] {
        var gray = [UInt8](repeating: 0, count: width * height)
        try gray.withUnsafeMutableBufferPointer { buffer in
            try check(CB_Image_copy_gray(handle, buffer.baseAddress, buffer.count)) { .engineFailure($0) }
        }
        return gray
    }

    /// The picture resized to `width` x `height` (`cv::resize` with INTER_AREA: each pixel the mean of those it
    /// covers), as packed 8-bit RGB, `width * height * 3` bytes, row by row (`CB_Image_copy_resized_rgb`): a
    /// thumbnail to show, made in CBridge so a caller never loops over a full frame's pixels. Throws
    /// `ScanError.invalidParameter` when a side is outside 1...32768.
    public func resizedRGBPixels(width: Int, height: Int) throws -> [UInt8] {
        guard (1...32768).contains(width), (1...32768).contains(height) else {
            throw ScanError.invalidParameter(parameter: "width, height",
                                             reason: "\(width)x\(height): each side must be 1...32768 pixels")
        }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        try rgb.withUnsafeMutableBufferPointer { buffer in
            try check(CB_Image_copy_resized_rgb(handle, Int32(width), Int32(height), buffer.baseAddress,
                                                buffer.count)) { .engineFailure($0) }
        }
        return rgb
    }

    /// The mean gray of every `cell` x `cell` block, row by row (`CB_Image_cell_means`); blocks cut by the
    /// right or bottom edge are left out.
    func cellMeans(cell: Int) throws -> (means: [UInt8], columns: Int, rows: Int) {
        // At least one byte: an image smaller than a cell has no cells, and the bridge wants a buffer anyway.
        var means = [UInt8](repeating: 0, count: max((width / cell) * (height / cell), 1))
        var columns: Int32 = 0, rows: Int32 = 0
        try means.withUnsafeMutableBufferPointer { buffer in
            try check(CB_Image_cell_means(handle, Int32(cell), buffer.baseAddress, buffer.count, &columns, &rows)) {
                .engineFailure($0)
            }
        }
        return (Array(means.prefix(Int(columns) * Int(rows))), Int(columns), Int(rows))
    }

    /// The detail of each of `columns` x `rows` equal cells, row by row (`CB_Image_cell_detail`: the mean absolute
    /// Laplacian of the means of the gray's 4 x 4 blocks, in gray levels).
    func cellDetail(columns: Int, rows: Int) throws -> [Float] {
        var detail = [Float](repeating: 0, count: columns * rows)
        try detail.withUnsafeMutableBufferPointer { buffer in
            try check(CB_Image_cell_detail(handle, Int32(columns), Int32(rows), buffer.baseAddress, buffer.count)) {
                .engineFailure($0)
            }
        }
        return detail
    }

    /// The gray pixels of `rect` (clipped to the picture), to look for in later frames with `locate`.
    func copyPatch(_ rect: PixelRect) throws -> FrameImage {
        var patch: OpaquePointer?
        try check(CB_Image_copy_patch(handle, CB_Rect(rect), &patch)) { .engineFailure($0) }
        guard let patch else { throw ScanError.engineFailure("CB_Image_copy_patch returned no image") }
        return FrameImage(handle: patch)
    }

    /// Where `patch` matches this picture best with its top-left corner in `corners`: that corner and the
    /// normalised correlation (-1...1; -1 when the patch does not fit).
    func locate(_ patch: FrameImage, corners: PixelRect) throws -> (x: Double, y: Double, score: Double) {
        var x: Float = 0, y: Float = 0, score = -1.0
        try check(CB_Image_locate_patch(patch.handle, handle, CB_Rect(corners), &x, &y, &score)) { .engineFailure($0) }
        return (Double(x), Double(y), score)
    }

    /// How sharp the picture is (variance of the Laplacian, `CB_Image_sharpness`): compare frames of one
    /// scene, not scenes.
    public func sharpness() throws -> Double {
        var value = 0.0
        try check(CB_Image_sharpness(handle, &value)) { .engineFailure($0) }
        return value
    }

    /// Encodes the image to `path`; the extension picks the format (`cv::imwrite`).
    public func write(to path: String) throws {
        try check(CB_Image_write(handle, path)) { .outputFailed(path: path, reason: $0) }
    }

    /// The picture as a JPEG file's bytes, scaled down to at most `maxWidth` pixels wide (nil: as it is), at
    /// `quality` 1...100 (`CB_Image_encode_jpeg`): a picture to show.
    public func jpegData(maxWidth: Int? = nil, quality: Int = 80) throws -> Data {
        var bytes: UnsafeMutablePointer<UInt8>?
        var count = 0
        try check(CB_Image_encode_jpeg(handle, Int32(clamping: maxWidth ?? 0), Int32(clamping: quality), &bytes,
                                       &count)) { .invalidParameter(parameter: "jpeg", reason: $0) }
        defer { CB_Bytes_free(bytes) }
        guard let bytes else { throw ScanError.engineFailure("CB_Image_encode_jpeg returned no bytes") }
        return Data(bytes: bytes, count: count)
    }
}

extension CB_Rect {
    init(_ rect: PixelRect) {
        self.init(x: Int32(clamping: rect.x), y: Int32(clamping: rect.y), width: Int32(clamping: rect.width),
                  height: Int32(clamping: rect.height))
    }
}

extension FrameImage: FramePixels {}

extension Frame {
    /// The frame's pixels as CBridge holds them: the decoded `FrameImage` itself, or for pixels made elsewhere
    /// (a test's, an app's own) a gray copy, so every engine reads every frame.
    public func bridgeImage() throws -> FrameImage {
        if let decoded = image as? FrameImage {
            return decoded
        }
        return try FrameImage(pixels: image.grayPixels(), width: width, height: height, channels: 1)
    }

    /// This frame with its pixels in CBridge: itself when they are already, else with `bridgeImage()`'s copy, for
    /// work that reads them many times.
    func bridged() throws -> Frame {
        image is FrameImage ? self : Frame(image: try bridgeImage(), index: index, time: time, file: file)
    }

    /// Calls `body` with the handle of `bridgeImage()`, kept alive until `body` returns (a copy made for it would
    /// otherwise be freed as soon as its handle was read).
    func withBridgeImage<Result>(_ body: (OpaquePointer) throws -> Result) throws -> Result {
        let pixels = try bridgeImage()
        return try withExtendedLifetime(pixels) { try body(pixels.handle) }
    }
}
