import Testing
@testable import LiveScan

/// Languages as VisionKit users (BCP-47 tags) and Tesseract users (`eng+deu`) pass them.
@Suite struct TextLanguageTests {
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
}
