import Foundation
import LiveScan

/// `livescan scan`'s options, parsed and checked.
struct ScanOptions {
    var sources: [String] = []
    /// The sources as scanned: each run of image arguments (files and folders) is one scan, as of one folder
    /// holding them (its frames tagged with their file); a video, camera or stream is a scan of its own.
    var scans: [[String]] = []
    /// The symbologies named in `--types`; with `readsEverySymbology`, only the opt-in ones (the others are in it).
    var symbologies: [Symbology] = []
    var wantsBarcodes = true
    /// `barcodes` (or no `--types`): every symbology read by default (`Symbology.isReadByDefault`).
    var readsEverySymbology = true
    var wantsText = true
    /// Tesseract's names for `--languages` (`TextLanguage.tesseractNames`: `en-US` is `eng`), each once; `eng` when
    /// it is not given. The scan is made with these.
    var languages = ["eng"]
    /// `--languages` as typed, for the event log; nil when it is not given.
    var requestedLanguages: [String]?
    var quality = QualityLevel.balanced
    var raw = false
    /// `-q`: nothing printed; the exit status says whether anything was found.
    var quiet = false
    var singleItem = false
    /// `+`/`~`/`-` lines per event instead of one line per item found.
    var changes = false
    /// Print the first item found and stop.
    var once = false
    /// Enter on a URL in the listing opens it with xdg-open.
    var opensURLs = false
    /// Line output even when stdout is a terminal.
    var noListing = false
    /// `--preview`: the live listing draws the picture, its items outlined, above their rows (`TerminalPreview`).
    var preview = false
    /// `--names`: each line starts with the file it was found in (`labels/1.png: qr:...`).
    var names = false
    /// Cameras: the size and rate to ask for.
    var cameraSize: (width: Int, height: Int)?
    var cameraFPS: Double?
    /// Streams: seconds to wait for opening and for each frame (default 5).
    var streamTimeout = 5.0
    /// Live sources: reopen a source that stops, instead of ending the scan.
    var reconnect = false
    /// The most pixels an image, or a video frame, may have; it is refused undecoded when its header says so.
    var maxPixels = ImageSource.defaultMaxPixels
    /// Files: scan every N-th frame only.
    var every = 1
    /// Files: play at media speed, dropping what the scanner is too slow for, as a live source would.
    var realtime = false
    /// Write the frames with highlighted items: a video, or for an image extension the last frame.
    var annotatePath: String?
    var eventsPath: String?
    /// `--serve [HOST:]PORT` and `--serve-token`: the live view, served while the scan runs; nil when not asked for.
    var serve: ServeSettings?
    /// `--force`: `--events` may replace a file that is not an event log.
    var replacesAnyFile = false
    /// `--roi`: only items whose centre lies in it.
    var regionOfInterest: RegionOfInterest?
    /// `--tracker name=value,...` over the defaults; validated when the option is read.
    var tracker = TrackerConfiguration()
    /// `--out DIR`: an archive scan, a log per input (`ArchiveScan`); nil for a scan of SOURCE.
    var archive: ArchiveSettings?
    /// The options given, by name, in order.
    var givenOptions: [String] = []

    init(_ arguments: [String]) throws {
        let table = ScanOption.all
        let parsed = try CommandLineArguments(
            arguments, valued: Set(table.filter { $0.value != nil }.map(\.name)),
            switches: Set(table.filter { $0.value == nil }.map(\.name)),
            aliases: Dictionary(uniqueKeysWithValues: table.flatMap { option in
                option.names.dropFirst().map { ($0, option.name) }
            }))
        givenOptions = parsed.given
        archive = try ArchiveSettings(parsed)
        try readSources(parsed)
        try readRecognition(parsed)
        try readSwitches(parsed)
        try readLiveSettings(parsed)
        try readOutputs(parsed)
        try checkPreview()
        if archive == nil {
            // An archive scan checks its inputs, once folders and globs are expanded (`ArchiveScan`).
            try Self.checkOptionsApply(parsed.given, to: sources)
        }
    }

    /// SOURCE... and the scans they make.
    private mutating func readSources(_ parsed: CommandLineArguments) throws {
        // No SOURCE: the first camera, as a phone's scanner opens its camera.
        sources = parsed.positional.isEmpty ? ["/dev/video0"] : parsed.positional
        if sources.count > 1 && sources.contains(SourceKind.standardInput) {
            throw UsageError(message: "- (an image on standard input) is a SOURCE of its own: give it alone")
        }
        scans = Self.scans(of: sources)
    }

    /// What is looked for and how hard: `--types`, `--languages`, `--quality`, `--tracker`.
    private mutating func readRecognition(_ parsed: CommandLineArguments) throws {
        (symbologies, wantsBarcodes, readsEverySymbology, wantsText) = try Self.types(
            parsed.list("--types") ?? ScanOption.defaultTypes)
        requestedLanguages = try Self.languages(parsed.list("--languages"))
        languages = TextLanguage.tesseractNames(requestedLanguages ?? ["eng"])
        guard !languages.isEmpty else { throw UsageError(message: "--languages needs at least one language") }
        let qualityName = parsed.value("--quality") ?? QualityLevel.balanced.rawValue
        guard let quality = QualityLevel(rawValue: qualityName) else {
            throw UsageError(message: "unknown quality '\(qualityName)' (known: fast, balanced, accurate)")
        }
        self.quality = quality
        tracker = try Self.tracker(settings: parsed.list("--tracker") ?? [])
    }

    /// The switches, and which frames are read: `--every`, `--max-pixels`.
    private mutating func readSwitches(_ parsed: CommandLineArguments) throws {
        quiet = parsed.has("--quiet")
        raw = parsed.has("--raw")
        singleItem = parsed.has("--single")
        changes = parsed.has("--changes")
        once = parsed.has("--once")
        opensURLs = parsed.has("--open")
        noListing = parsed.has("--no-listing")
        preview = parsed.has("--preview")
        names = parsed.has("--names")
        reconnect = parsed.has("--reconnect")
        realtime = parsed.has("--realtime")
        replacesAnyFile = parsed.has("--force")
        if changes && once {
            throw UsageError(message: "--changes and --once do not go together")
        }
        every = try parsed.number("--every", takes: "a whole number of frames, 1 or more") { $0 >= 1 } ?? every
        maxPixels = try parsed.number("--max-pixels", takes: "a whole number of pixels, 1 or more") { $0 >= 1 }
            ?? maxPixels
    }

    /// Cameras' and streams' settings (`--size`, `--fps`, `--timeout`) and the region of interest.
    private mutating func readLiveSettings(_ parsed: CommandLineArguments) throws {
        if let size = parsed.value("--size") {
            let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts.allSatisfy({ (1...16384).contains($0) }) else {
                throw UsageError(message: "--size takes WIDTHxHEIGHT, e.g. 1280x720, got '\(size)'")
            }
            cameraSize = (parts[0], parts[1])
        }
        cameraFPS = try parsed.number("--fps", takes: "a rate in (0, 1000]") { $0 > 0 && $0 <= 1000 }
        streamTimeout = try parsed.number("--timeout", takes: "seconds in (0, 3600]") { $0 > 0 && $0 <= 3600 }
            ?? streamTimeout
        regionOfInterest = try parsed.value("--roi").map(RegionOfInterest.init(parsing:))
    }

    /// The files written beside the listing: `--annotate`, `--events`.
    private mutating func readOutputs(_ parsed: CommandLineArguments) throws {
        annotatePath = parsed.value("--annotate")
        eventsPath = parsed.value("--events")
        if let annotatePath {
            try Self.requireOneScan(scans, for: "--annotate draws")
            guard Annotator.isWritablePath(annotatePath) else {
                throw UsageError(message: "--annotate \(annotatePath): not a video or image name (use "
                    + Annotator.extensions.map { "." + $0 }.joined(separator: ", ") + ")")
            }
        }
        // Both are written through Foundation and OpenCV, which take names as UTF-8 text: a name carrying other
        // bytes would be created under another name, so it is refused rather than written where nobody looks.
        for (option, path) in [("--events", eventsPath), ("--annotate", annotatePath)] {
            if let path, FileNameBytes.carriesBytes(path) {
                throw UsageError(message: "\(option) \(path): an output name must be valid UTF-8; give another")
            }
        }
        if eventsPath != nil {
            try Self.requireOneScan(scans, for: "--events records")
        }
        serve = try ServeSettings(address: parsed.value("--serve"), token: parsed.value("--serve-token"))
        if serve != nil {
            try Self.requireOneScan(scans, for: "--serve shows")
        }
    }

    /// The first option that turns the live listing off, by its name (line output asked for, or standard output
    /// taken by the event log); nil when none does. The listing's rule (`ScanCommand.wantsListing`) and `--preview`'s
    /// refusal both read it here.
    var listingTurnedOffBy: String? {
        let turningOff = [("--no-listing", noListing), ("--raw", raw), ("--once", once), ("--changes", changes),
                          ("--quiet", quiet), ("--events -", eventsPath == "-")]
        return turningOff.first { $0.1 }?.0
    }

    /// `--preview` draws in the live listing: refused where there will be none, whatever the terminal (an archive
    /// scan, an option that turns it off), so a mistake is said before anything is scanned. Where only the
    /// terminal lacks (a pipe, `TERM=dumb`) it is ignored, as the listing is: a script may pass it always.
    private func checkPreview() throws {
        guard preview else { return }
        if archive != nil {
            throw UsageError(message: "--preview does not go with --out: an archive scan shows no listing")
        }
        if let option = listingTurnedOffBy {
            throw UsageError(message: "--preview draws in the live listing, which \(option) turns off")
        }
    }

    /// Runs of image arguments joined into one scan each; every other source alone.
    static func scans(of sources: [String]) -> [[String]] {
        var scans: [[String]] = []
        var previousIsImage = false
        for source in sources {
            let isImage = SourceKind.of(source) == .image
            if isImage && previousIsImage {
                scans[scans.count - 1].append(source)
            } else {
                scans.append([source])
            }
            previousIsImage = isImage
        }
        return scans
    }

    /// One log or annotation holds one scan. Images, which have no time of their own, join into one; videos,
    /// cameras and streams do not: each has its own frame numbers, media times and picture size, which the log's
    /// `frame`, `time` and start line give for one source (renumbered, a video's frames would no longer be its
    /// own, as `--every` keeps them; repeated, two frames 0 would be one).
    private static func requireOneScan(_ scans: [[String]], for what: String) throws {
        guard scans.count != 1 else { return }
        throw UsageError(message: "\(what) one scan: give one video, camera or stream, or images and folders of "
            + "images only (they make one scan)")
    }

    /// `--types`: the symbologies named, each once, whether barcodes and text are wanted, and whether `barcodes`
    /// (every symbology read by default) was among them.
    private static func types(_ names: [String]) throws
        -> (symbologies: [Symbology], wantsBarcodes: Bool, readsEverySymbology: Bool, wantsText: Bool)
    {
        guard !names.isEmpty else { throw UsageError(message: "--types needs at least one type") }
        var symbologies: [Symbology] = []
        var wantsBarcodes = false, readsEverySymbology = false, wantsText = false
        for name in names {
            switch name.lowercased() {
            case "text":
                wantsText = true
            case "barcodes", EventLog.Config.allBarcodes:
                wantsBarcodes = true
                readsEverySymbology = true
            default:
                guard let symbology = Symbology(name: name) else {
                    throw UsageError(message: "unknown type '\(name)' in --types (known: "
                        + ScanOption.typeNames.joined(separator: ", ") + ")")
                }
                wantsBarcodes = true
                if !symbologies.contains(symbology) {
                    symbologies.append(symbology)
                }
            }
        }
        if readsEverySymbology {
            // `barcodes,telepen`: what `barcodes` reads, and the opt-in ones named beside it.
            symbologies.removeAll(where: \.isReadByDefault)
        }
        return (symbologies, wantsBarcodes, readsEverySymbology, wantsText)
    }

    /// `--languages`, checked for characters no Tesseract or BCP-47 name has; nil when not given.
    private static func languages(_ given: [String]?) throws -> [String]? {
        guard let languages = given else { return nil }
        guard !languages.isEmpty else { throw UsageError(message: "--languages needs at least one language") }
        let languageCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+")
        for language in languages where !language.allSatisfy(languageCharacters.contains) {
            throw UsageError(message: "invalid language '\(language)' in --languages (names like eng, chi_sim or "
                + "en-US, comma-separated)")
        }
        return languages
    }

    /// `--tracker name=value,...` over the defaults, each setting validated as it is read. A bad one is named as
    /// typed (`grace_period`), not by the library's property (`gracePeriod`): validating after each setting, what
    /// fails is the setting just made.
    private static func tracker(settings: [String]) throws -> TrackerConfiguration {
        var tracker = TrackerConfiguration()
        let known = tracker.fields.map(\.0)
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let value = Double(parts[1]) else {
                throw UsageError(message: "--tracker takes name=number pairs, got '\(setting)'")
            }
            guard known.contains(parts[0]) else {
                throw UsageError(message: "--tracker \(setting): unknown setting '\(parts[0])' (known: "
                    + known.joined(separator: ", ") + ")")
            }
            do {
                try tracker.set(parts[0], to: value)
                try tracker.validate()
            } catch let ScanError.invalidParameter(_, reason) {
                throw UsageError(message: "--tracker \(setting): \(parts[0]) \(reason)")
            }
        }
        return tracker
    }

    /// An option given for none of the sources (`--fps` for a video file) is a mistake worth saying.
    static func checkOptionsApply(_ given: [String], to sources: [String]) throws {
        let kinds = sources.map(SourceKind.of)
        for name in given {
            guard let option = ScanOption.named(name), option.appliesTo.isDisjoint(with: kinds) else { continue }
            let applies = SourceKind.allCases.filter(option.appliesTo.contains).map(\.rawValue)
            let what = sources.count == 1 ? "\(sources[0]) is \(kinds[0].rawValue)" : "none of the sources is"
            throw UsageError(message: "\(name) applies to \(applies.joined(separator: " or ")) only, and \(what)")
        }
    }

    var recognizedDataTypes: Set<RecognizedDataType> {
        var types = Set<RecognizedDataType>()
        if wantsBarcodes {
            // An empty list is every symbology read by default; opt-in ones named beside `barcodes` join it.
            let named = readsEverySymbology && !symbologies.isEmpty ? Symbology.readByDefault + symbologies
                : symbologies
            types.insert(.barcode(symbologies: named))
        }
        if wantsText {
            types.insert(.text(languages: languages))
        }
        return types
    }

    /// The start line's `config`; `region` is the region of interest in pixels.
    func eventLogConfig(tracker: TrackerConfiguration, region: Bounds?) -> EventLog.Config {
        var types = (wantsBarcodes && readsEverySymbology ? [EventLog.Config.allBarcodes] : [])
            + symbologies.map(\.rawValue)
        if wantsText {
            types.append("text")
        }
        return EventLog.Config(types: types, languages: languages, requestedLanguages: requestedLanguages,
                               quality: quality, multipleItems: !singleItem, tracker: tracker,
                               regionOfInterest: region)
    }
}

/// `--roi X,Y,W,H`: in pixels, or in fractions of the frame when all four are at most 1.
struct RegionOfInterest: Equatable {
    var x, y, width, height: Double

    init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// `X,Y,W,H` as `--roi` takes it: four finite numbers, width and height above 0.
    init(parsing text: String) throws {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let width = numbers[2],
              let height = numbers[3], [x, y, width, height].allSatisfy({ $0.isFinite && abs($0) <= 1e6 }),
              width > 0, height > 0 else {
            throw UsageError(message: "--roi takes X,Y,W,H (pixels, or fractions of the frame when all are at "
                + "most 1), width and height above 0, got '\(text)'")
        }
        self.init(x: x, y: y, width: width, height: height)
    }

    var isFraction: Bool { [x, y, width, height].allSatisfy { $0 <= 1 } }

    /// The region in the pixels of a `frameWidth` x `frameHeight` frame, cut to the frame; nil when none of it
    /// lies in the frame.
    func bounds(frameWidth: Int, frameHeight: Int) -> Bounds? {
        let (scaleX, scaleY) = isFraction ? (Double(frameWidth), Double(frameHeight)) : (1, 1)
        let left = max(x * scaleX, 0), top = max(y * scaleY, 0)
        let right = min((x + width) * scaleX, Double(frameWidth))
        let bottom = min((y + height) * scaleY, Double(frameHeight))
        guard right > left, bottom > top else { return nil }
        return Bounds(x: left, y: top, width: right - left, height: bottom - top)
    }
}
