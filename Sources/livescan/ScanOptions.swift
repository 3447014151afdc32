import LiveScan

/// `livescan scan`'s options, parsed and checked.
struct ScanOptions {
    static let valuedOptions: Set<String> = ["--types", "--languages", "--quality", "--events", "--tracker"]
    static let switchOptions: Set<String> = ["--raw", "--single", "--changes", "--once", "--open", "--no-listing"]

    var sources: [String]
    var symbologies: [Symbology]
    var wantsBarcodes: Bool
    var wantsText: Bool
    var languages: [String]
    var quality: QualityLevel
    var raw: Bool
    var singleItem: Bool
    /// `+`/`~`/`-` lines per event instead of one line per item found.
    var changes: Bool
    /// Print the first item found and stop.
    var once: Bool
    /// Enter on a URL in the listing opens it with xdg-open.
    var opensURLs: Bool
    /// Line output even when stdout is a terminal.
    var noListing: Bool
    var eventsPath: String?
    /// `--tracker name=value,...` over the defaults; validated when the option is read.
    var tracker = TrackerConfiguration()

    /// Every name `--types` accepts.
    static var typeNames: [String] { Symbology.allCases.map(\.rawValue) + ["text"] }

    init(_ arguments: [String]) throws {
        let parsed = try CommandLineArguments(arguments, valued: ScanOptions.valuedOptions,
                                              switches: ScanOptions.switchOptions)
        sources = parsed.positional
        guard !sources.isEmpty else {
            throw UsageError(message: "scan needs a SOURCE (an image, a folder of images or a video file)")
        }
        symbologies = []
        wantsText = true
        wantsBarcodes = true
        if let types = parsed.list("--types") {
            guard !types.isEmpty else { throw UsageError(message: "--types needs at least one type") }
            wantsText = false
            wantsBarcodes = false
            for name in types {
                if name.lowercased() == "text" {
                    wantsText = true
                } else if let symbology = Symbology(rawValue: name.lowercased()) {
                    wantsBarcodes = true
                    symbologies.append(symbology)
                } else {
                    throw UsageError(message: "unknown type '\(name)' in --types (known: "
                        + ScanOptions.typeNames.joined(separator: ", ") + ")")
                }
            }
        }
        languages = parsed.list("--languages") ?? ["eng"]
        guard !languages.isEmpty else { throw UsageError(message: "--languages needs at least one language") }
        let languageCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
        for language in languages where !language.allSatisfy(languageCharacters.contains) {
            throw UsageError(message: "invalid language '\(language)' in --languages (names like eng or chi_sim, "
                + "comma-separated)")
        }
        let qualityName = parsed.value("--quality") ?? QualityLevel.balanced.rawValue
        guard let quality = QualityLevel(rawValue: qualityName) else {
            throw UsageError(message: "unknown quality '\(qualityName)' (known: fast, balanced, accurate)")
        }
        self.quality = quality
        raw = parsed.has("--raw")
        singleItem = parsed.has("--single")
        changes = parsed.has("--changes")
        once = parsed.has("--once")
        opensURLs = parsed.has("--open")
        noListing = parsed.has("--no-listing")
        if changes && once {
            throw UsageError(message: "--changes and --once do not go together")
        }
        eventsPath = parsed.value("--events")
        for setting in parsed.list("--tracker") ?? [] {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let value = Double(parts[1]) else {
                throw UsageError(message: "--tracker takes name=number pairs, got '\(setting)'")
            }
            do {
                try tracker.set(parts[0], to: value)
                try tracker.validate()
            } catch let error as ScanError {
                throw UsageError(message: "--tracker: \(error.description)")
            }
        }
        if eventsPath != nil, sources.count != 1 {
            throw UsageError(message: "--events records one SOURCE; give one (a folder of images is one source)")
        }
    }

    var recognizedDataTypes: Set<RecognizedDataType> {
        var types = Set<RecognizedDataType>()
        if wantsBarcodes {
            types.insert(.barcode(symbologies: symbologies))
        }
        if wantsText {
            types.insert(.text(languages: languages))
        }
        return types
    }

    /// The start line's `config` object, as JSON values.
    func eventLogConfig(tracker: TrackerConfiguration) -> [(String, String)] {
        func quoted(_ values: [String]) -> String { "[" + values.map { "\"\($0)\"" }.joined(separator: ",") + "]" }
        var types = symbologies.isEmpty && wantsBarcodes ? ["all-barcodes"] : symbologies.map(\.rawValue)
        if wantsText {
            types.append("text")
        }
        let trackerJSON = "{" + tracker.fields.map { "\"\($0.0)\":\(formatNumber($0.1))" }.joined(separator: ",") + "}"
        return [("types", quoted(types)), ("languages", quoted(languages)), ("quality", "\"\(quality.rawValue)\""),
                ("multiple_items", singleItem ? "false" : "true"), ("tracker", trackerJSON)]
    }

    private func formatNumber(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
