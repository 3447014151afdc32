/// A barcode symbology, named as LiveScan names it everywhere: `--types`, the listing and the event log.
/// Each is one `CB_Format` flag, which reads a zxing-cpp 3 symbology (see CBridge.h).
public enum Symbology: String, CaseIterable, Sendable, Codable {
    case qr, microqr, datamatrix, aztec, pdf417, maxicode
    case ean13, ean8, upca, upce, code128, code39, code93, codabar, itf
    case databar, databarExpanded = "databar-expanded"

    /// Symbologies with two-dimensional modules (the others are linear codes).
    public var isTwoDimensional: Bool {
        switch self {
        case .qr, .microqr, .datamatrix, .aztec, .pdf417, .maxicode: return true
        default: return false
        }
    }
}
