import Foundation
internal import CBridge

/// Frames in, one video file out (`CB_VideoWriter`: `cv::VideoWriter`, FFmpeg backend). The extension
/// picks the codec: .mp4/.mkv/.mov H.264 ("avc1", else "mp4v"), .avi Motion JPEG. Odd sizes are padded
/// by one pixel (H.264 needs even ones). One thread at a time.
public final class VideoWriter: @unchecked Sendable {
    /// The extensions it writes (CBridge/VideoWriter.cpp picks each one's codec).
    public static let extensions = ["mp4", "mkv", "mov", "avi"]

    public let path: String
    public let width: Int
    public let height: Int
    private let handle: OpaquePointer

    /// Opens `path` for `width`x`height` frames at `fps`. Throws `ScanError.invalidParameter` for an
    /// unknown extension or a bad size or rate, `.outputFailed` when the file cannot be created.
    public init(path: String, fps: Double, width: Int, height: Int) throws {
        guard fps.isFinite, fps > 0, fps <= 1000 else {
            throw ScanError.invalidParameter(parameter: "fps", reason: "\(fps) is not in (0, 1000]")
        }
        guard (1...16384).contains(width), (1...16384).contains(height) else {
            throw ScanError.invalidParameter(parameter: "size", reason: "\(width)x\(height) is not in 1...16384")
        }
        var made: OpaquePointer?
        let status = CB_VideoWriter_open(path, fps, Int32(width), Int32(height), &made)
        if status == CB_INVALID_ARGUMENT {
            throw ScanError.invalidParameter(parameter: "path", reason: bridgeLastError())
        }
        try check(status) { .outputFailed(path: path, reason: $0) }
        guard let made else { throw ScanError.engineFailure("CB_VideoWriter_open returned no writer") }
        self.path = path
        self.width = width
        self.height = height
        handle = made
    }

    deinit {
        CB_VideoWriter_delete(handle)
    }

    /// The codec in use: "avc1", "mp4v" or "MJPG".
    public var fourcc: String { String(cString: CB_VideoWriter_fourcc(handle)) }

    /// Encodes one frame; one of another size is scaled to fit `width` x `height`, aspect kept, on black.
    public func write(_ image: FrameImage) throws {
        try check(CB_VideoWriter_write(handle, image.handle)) { .outputFailed(path: path, reason: $0) }
    }

    /// Finishes the file (flushes the encoder, writes the container's index). Idempotent.
    public func close() throws {
        try check(CB_VideoWriter_close(handle)) { .outputFailed(path: path, reason: $0) }
    }
}

// MARK: - Highlights drawn over a frame

/// One item to draw over a frame: its outline, colour (by kind) and label.
struct FrameAnnotation: Sendable, Equatable {
    enum Kind: Sendable {
        case barcode, text, region

        var raw: CB_AnnotationKind {
            switch self {
            case .barcode: CB_ANNOTATION_BARCODE
            case .text: CB_ANNOTATION_TEXT
            case .region: CB_ANNOTATION_REGION
            }
        }
    }

    var bounds: Bounds
    var kind: Kind
    /// Untrusted text: CBridge draws ASCII only ('?' for anything else) and cuts it to 40 characters.
    var label: String
}

extension FrameImage {
    /// A copy of the image with `annotations` drawn (`CB_Image_copy_annotated`); the image itself is never
    /// changed, since frames are shared between the scanner's threads.
    func annotated(with annotations: [FrameAnnotation]) throws -> FrameImage {
        // The C strings must outlive the call: copied once, freed together afterwards.
        let labels = annotations.map { strdup($0.label) }
        defer { labels.forEach { free($0) } }
        let raw = zip(annotations, labels).map { annotation, label in
            CB_Annotation(quad: CB_Quad(annotation.bounds),
                          kind: Int32(annotation.kind.raw.rawValue),
                          label: label.map { UnsafePointer($0) })
        }
        var copy: OpaquePointer?
        try raw.withUnsafeBufferPointer { buffer in
            try check(CB_Image_copy_annotated(handle, buffer.baseAddress, buffer.count, &copy)) {
                .engineFailure("drawing highlights: \($0)")
            }
        }
        guard let copy else { throw ScanError.engineFailure("CB_Image_copy_annotated returned no image") }
        return FrameImage(handle: copy)
    }
}
