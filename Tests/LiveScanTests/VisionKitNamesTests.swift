import Testing
@testable import LiveScan

/// Names as VisionKit and Vision users pass them: BCP-47 language tags (and Tesseract users' `eng+deu`),
/// Apple's symbology names.
@Suite struct VisionKitNamesTests {
    @Test func tagsBecomeTesseractNames() {
        #expect(TextLanguage.tesseractNames(["en-US", "ja-JP", "zh-Hans", "de"]) == ["eng", "jpn", "chi_sim", "deu"])
        #expect(TextLanguage.tesseractNames(["zh-Hant", "zh-TW", "zh-CN", "zh"]) == ["chi_tra", "chi_sim"])
        #expect(TextLanguage.tesseractNames(["sr-Latn", "pt-BR", "es-419", "nb-NO"])
                    == ["srp_latn", "por", "spa", "nor"])
        // Tesseract's own names pass through, `+` lists are split, each language comes once.
        #expect(TextLanguage.tesseractNames(["eng+deu", "deu", "chi_sim", "en"]) == ["eng", "deu", "chi_sim"])
        // Unknown names are left for Tesseract to report missing.
        #expect(TextLanguage.tesseractNames(["klingon", "xx"]) == ["klingon", "xx"])
    }

    /// Symbologies as Apple's Vision spells them, beside LiveScan's own names.
    @Test func symbologiesByAppleNames() {
        let names = ["microQR", "dataMatrix", "gs1DataBar", "gs1DataBarExpanded", "itf14", "I2of5", "QR", "EAN13"]
        #expect(names.map { Symbology(name: $0) } == [.microqr, .datamatrix, .databar, .databarExpanded, .itf14,
                                                       .itf,
                                                       .qr, .ean13])
        #expect(Symbology(name: "databar-expanded") == .databarExpanded)
        #expect(Symbology(name: "code11") == nil)
    }
}
