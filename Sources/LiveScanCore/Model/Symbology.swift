/// A barcode symbology, named as LiveScan names it everywhere: `--types`, the listing and the event log.
/// Each is one `CB_Format` flag, which reads a zxing-cpp 3 symbology (see CBridge.h). `telepen` and `dxfilmedge`
/// are opt-in: read only when named, never as part of "every symbology" (`isReadByDefault`).
public enum Symbology: String, CaseIterable, Sendable, Codable {
    case qr, microqr, datamatrix, aztec, pdf417, maxicode
    case ean13, ean8, upca, upce, code128, code39, code93, codabar, itf
    case databar, databarExpanded = "databar-expanded"
    /// Telepen, full ASCII (Telepen Alpha), numeric (Telepen Numeric, its digits in pairs) or both: opt-in.
    case telepen
    /// The DX code on the edge of 35 mm film, its payload "DX1-DX2" or "DX1-DX2/FRAME" (`36-2/21`): opt-in.
    case dxfilmedge

    /// The symbology called `name`: as LiveScan names it, or as Apple's Vision does (`VNBarcodeSymbology`:
    /// `microQR`, `dataMatrix`, `gs1DataBar`, `gs1DataBarExpanded`, `itf14`, `i2of5`, ...), in any case.
    public init?(name: String) {
        let lowered = name.lowercased()
        guard let symbology = Symbology(rawValue: lowered) ?? Symbology.visionNames[lowered] else { return nil }
        self = symbology
    }

    /// Vision's names, lowercased, where they are not LiveScan's.
    private static let visionNames: [String: Symbology] = [
        "gs1databar": .databar, "gs1databarlimited": .databar, "gs1databarexpanded": .databarExpanded,
        "itf14": .itf, "i2of5": .itf, "i2of5checksum": .itf, "micropdf417": .pdf417,
        "code39checksum": .code39, "code39fullascii": .code39, "code39fullasciichecksum": .code39,
        "code93i": .code93,
    ]

    /// Symbologies with two-dimensional modules (the others are linear codes).
    public var isTwoDimensional: Bool {
        switch self {
        case .qr, .microqr, .datamatrix, .aztec, .pdf417, .maxicode: return true
        default: return false
        }
    }
}
