/// A barcode symbology, named as LiveScan names it everywhere: `--types`, the listing and the event log.
/// Each is one `CB_Format` flag, which reads a zxing-cpp 3 symbology (see CBridge.h). `telepen` and `dxfilmedge`
/// are opt-in: read only when named, never as part of "every symbology" (`isReadByDefault`).
public enum Symbology: String, CaseIterable, Sendable, Codable {
    case qr, microqr, datamatrix, aztec, pdf417, maxicode
    case ean13, ean8, upca, upce, code128, code39, code93, codabar, itf
    /// ITF-14, GS1's shipping-container code (Vision's `itf14`): an ITF of exactly 14 digits whose last is the GS1
    /// mod-10 check digit of the other 13. Read by the ITF reader; only reads that are ITF-14s are reported as it
    /// (`reported(_:payload:requested:)`).
    case itf14
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
        "i2of5": .itf, "i2of5checksum": .itf, "micropdf417": .pdf417,
        "code39checksum": .code39, "code39fullascii": .code39, "code39fullasciichecksum": .code39,
        "code93i": .code93,
    ]

    /// What a symbol read as `read` is reported as when `requested` are asked for, nil when it is not asked for.
    /// An ITF is `itf` whenever ITF is asked for (every ITF-14 is an ITF, so plain `itf` reads them all as ever);
    /// asked for ITF-14 only, it is `itf14` if its payload is one (`isITF14`) and nothing otherwise: a run of
    /// bars inside another symbol or a shorter ITF is no ITF-14. Every other symbology is itself.
    public static func reported(_ read: Symbology, payload: String?, requested: Set<Symbology>) -> Symbology? {
        guard read == .itf, !requested.contains(.itf) else { return read }
        return requested.contains(.itf14) && payload.map(isITF14) == true ? .itf14 : nil
    }

    /// Whether `payload` is an ITF-14: 14 ASCII digits, the last the GS1 mod-10 check digit of the first 13
    /// (weights 3 and 1 alternating from the leftmost).
    public static func isITF14(_ payload: String) -> Bool {
        let digits = payload.utf8.map { Int($0) - 48 }
        guard digits.count == 14, digits.allSatisfy({ (0...9).contains($0) }) else { return false }
        let sum = digits.prefix(13).enumerated().reduce(0) { $0 + $1.element * ($1.offset.isMultiple(of: 2) ? 3 : 1) }
        return (10 - sum % 10) % 10 == digits[13]
    }

    /// Symbologies with two-dimensional modules (the others are linear codes).
    public var isTwoDimensional: Bool {
        switch self {
        case .qr, .microqr, .datamatrix, .aztec, .pdf417, .maxicode: return true
        default: return false
        }
    }
}
