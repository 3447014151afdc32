/// Finds and decodes barcodes in a frame. Implementations are safe to call from several threads.
public protocol BarcodeDetector: Sendable {
    func detect(in frame: Frame) throws -> [Observation]
}

/// A detector that can also read just part of a frame: what reading a video only where it changed needs
/// (`ChangeGatedBarcodeReader`).
public protocol RegionBarcodeDetector: BarcodeDetector {
    /// Reads only `region` of the frame (nil: all of it); bounds stay in the frame's pixels. A read of part of a
    /// frame is a video's read of what changed since the frame's last whole read, and may leave to the whole reads
    /// what they do anyway (`ZXingBarcodeDetector`: the second chances of 2-D codes).
    func detect(in frame: Frame, region: PixelRect?) throws -> [Observation]
}

/// The zxing-cpp knobs a quality level turns.
public struct BarcodeDetectorOptions: Sendable, Equatable {
    /// The symbologies to look for; empty = every one read by default (`Symbology.isReadByDefault`: all but
    /// `telepen` and `dxfilmedge`).
    public var symbologies: Set<Symbology>
    /// zxing-cpp `tryHarder`: slower, finds small and damaged codes; with it, the 2-D formats a whole read of a
    /// frame did not find but Micro QR get second chances (halved; doubled when small) (default true).
    public var tryHarder: Bool
    /// zxing-cpp `tryRotate`: also reads codes turned by 90 degrees (default true, as ZXingReader).
    public var tryRotate: Bool
    /// Frames whose long side exceeds this are downscaled by LiveScan before decoding (default 1920; 0: never).
    public var maxDimension: Int
    /// Also zxing-cpp's own downscaled passes after the full-size one (tryDownscale): halving low-passes the
    /// moire of a photographed screen and merges noisy modules. A quarter slower a 720p frame for 0.2 % more
    /// codes on the corpora (default false).
    public var triesDownscaled = false
    /// Also read the inverted picture, for light-on-dark codes (zxing-cpp's tryInvert; default false: it costs a
    /// second pass).
    public var triesInverted = false
    /// Also linear codes turned away from rows and columns (20-70 degrees, as hand-held photos have them): regions
    /// whose gradients all point one way are cut out upright and read again; regions holding a code already read
    /// are skipped (`CB_BarcodeOptions.try_any_angle`; default false).
    public var readsAnyAngle = false
    /// Also the 2-D codes of the frame contrast-equalised (CLAHE on an 8 x 8 grid of tiles): codes whose modules
    /// differ by too few grey levels for zxing-cpp's binariser, in underexposed photos or beside a bright spot or
    /// glare (`CB_BarcodeOptions.try_equalised`; default false: it costs a read more).
    public var triesEqualised = false

    public init(symbologies: Set<Symbology> = [], tryHarder: Bool = true, tryRotate: Bool = true,
                maxDimension: Int = 1920) {
        self.symbologies = symbologies
        self.tryHarder = tryHarder
        self.tryRotate = tryRotate
        self.maxDimension = maxDimension
    }
}
