/// Text languages as callers name them, made Tesseract's. VisionKit takes BCP-47 tags (`en-US`, `ja-JP`,
/// `zh-Hans`, `de`); Tesseract names its trained data by ISO 639-2 codes and a few of its own (`eng`, `jpn`,
/// `chi_sim`, `deu`), and its users join several with `+` (`eng+deu`). Both spellings are accepted everywhere a
/// language is given.
public enum TextLanguage {
    /// Tesseract's names for `languages`, in order, each once: BCP-47 tags mapped, Tesseract names kept,
    /// `eng+deu` split. A name neither knows is passed on as given, for Tesseract to report missing.
    public static func tesseractNames(_ languages: [String]) -> [String] {
        var names: [String] = []
        for language in languages.flatMap({ $0.split(separator: "+").map(String.init) }) where !language.isEmpty {
            let name = tesseractName(language)
            if !names.contains(name) {
                names.append(name)
            }
        }
        return names
    }

    static func tesseractName(_ language: String) -> String {
        // Tesseract's own names are three letters or more with underscores (`eng`, `chi_sim`, `deu_latf`).
        let subtags = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
        guard let primary = subtags.first, primary.count == 2 || language.contains("-") else { return language }
        if primary == "zh" {
            // Script first (zh-Hans, zh-Hant), else the region's usual script.
            let traditional = subtags.contains("hant") || subtags.contains { ["tw", "hk", "mo"].contains($0) }
            return traditional ? "chi_tra" : "chi_sim"
        }
        if primary == "sr", subtags.contains("latn") {
            return "srp_latn"
        }
        return tesseractCodes[primary] ?? (primary.count == 3 ? primary : language)
    }

    /// The BCP-47 tag that names Tesseract's `name` here (`tesseractName(tag) == name`): `eng` is `en`, `chi_sim`
    /// `zh-Hans`, `srp_latn` `sr-Latn`, `nor` `nb`; nil for data no tag names (`osd`, `enm`, `frk`: give those as
    /// Tesseract names them).
    public static func bcp47Tag(forTesseractName name: String) -> String? {
        let scripts = ["chi_sim": "zh-Hans", "chi_tra": "zh-Hant", "srp_latn": "sr-Latn"]
        return scripts[name] ?? tesseractCodes.filter { $0.value == name }.map(\.key).sorted().first
    }

    /// ISO 639-1 to Tesseract, for the languages Debian 12 packages trained data for.
    private static let tesseractCodes: [String: String] = [
        "af": "afr", "am": "amh", "ar": "ara", "az": "aze", "be": "bel", "bg": "bul", "bn": "ben", "bo": "bod",
        "bs": "bos", "ca": "cat", "cs": "ces", "cy": "cym", "da": "dan", "de": "deu", "el": "ell", "en": "eng",
        "eo": "epo", "es": "spa", "et": "est", "eu": "eus", "fa": "fas", "fi": "fin", "fr": "fra", "ga": "gle",
        "gl": "glg", "gu": "guj", "he": "heb", "hi": "hin", "hr": "hrv", "hu": "hun", "hy": "hye", "id": "ind",
        "is": "isl", "it": "ita", "ja": "jpn", "ka": "kat", "kk": "kaz", "km": "khm", "kn": "kan", "ko": "kor",
        "lo": "lao", "lt": "lit", "lv": "lav", "mk": "mkd", "ml": "mal", "mn": "mon", "mr": "mar", "ms": "msa",
        "mt": "mlt", "my": "mya", "nb": "nor", "ne": "nep", "nl": "nld", "nn": "nor", "no": "nor", "pa": "pan",
        "pl": "pol", "pt": "por", "ro": "ron", "ru": "rus", "si": "sin", "sk": "slk", "sl": "slv", "sq": "sqi",
        "sr": "srp", "sv": "swe", "sw": "swa", "ta": "tam", "te": "tel", "th": "tha", "tl": "tgl", "tr": "tur",
        "uk": "ukr", "ur": "urd", "uz": "uzb", "vi": "vie", "yi": "yid",
    ]
}
