import LiveScan

/// What the command shows while a scan runs. Calls come on the scanner's worker thread, in order;
/// a thrown `ScanError` stops the scan (`outputClosed` quietly).
protocol ScanPresenter: AnyObject {
    func changed(_ changes: ScanChanges) throws
    func processed(_ frame: Frame, items: [RecognizedItem]) throws
    func finished(_ outcome: ScanOutcome)
    func guidanceChanged(_ guidance: ScanGuidance?)
}

extension ScanPresenter {
    func processed(_ frame: Frame, items: [RecognizedItem]) throws {}
    func guidanceChanged(_ guidance: ScanGuidance?) {}
    func finished(_ outcome: ScanOutcome) {}
}

/// `--names`: what starts a line, the file its item was found in: the frame's image file, or the source's name
/// (a video, camera or stream; the listing's findings). Escaped: a file name is as untrusted as a payload.
struct SourceNames {
    let source: String

    func prefix(_ line: String, file: String?) -> String {
        TerminalSafeText.escape(file ?? source) + ": " + line
    }
}

/// zbarimg's habit: one line per item found (`qr:payload`, `text:...`; `--raw`: the value alone, exact when no
/// terminal reads it, `ValueWriting`). A code is
/// printed when it is first recognised: its payload is what it is. In a video a text line is printed when it
/// has settled, as it leaves or the scan ends, with the transcript voted over all its readings: its first
/// reading may be a piece (a line entering from the frame's edge reads `88`, then `Lot 88`, then
/// `Batch 2024 Lot 88`).
final class FindingLines: ScanPresenter {
    private let output: LineOutput
    private let raw: Bool
    private let names: SourceNames?
    private let settlesText: Bool
    private let writing: ValueWriting

    init(output: LineOutput, raw: Bool, names: SourceNames? = nil, settlesText: Bool = false,
         writing: ValueWriting = .escaped) {
        self.output = output
        self.raw = raw
        self.names = names
        self.settlesText = settlesText
        self.writing = writing
    }

    func changed(_ changes: ScanChanges) throws {
        try print(Self.settled(changes, settlesText: settlesText), file: changes.file)
    }

    /// The items of `changes` whose value has settled, in the order they are printed: every code added; text
    /// added when `settlesText` is false (a still image is read once: its lines are what they are), else text
    /// removed, as it leaves or the scan ends, with its voted transcript. `--once` prints the first of them.
    static func settled(_ changes: ScanChanges, settlesText: Bool) -> [RecognizedItem] {
        guard settlesText else { return changes.added }
        func isText(_ item: RecognizedItem) -> Bool {
            if case .text = item { true } else { false }
        }
        return changes.added.filter { !isText($0) } + changes.removed.filter(isText)
    }

    /// One line per item; `file`: the image file they were found in, for `--names`.
    func print(_ items: [RecognizedItem], file: String?) throws {
        for item in items {
            let start = names?.prefix(raw ? "" : "\(item.kindName):", file: file) ?? (raw ? "" : "\(item.kindName):")
            try output.write(lineBytes: Array(start.utf8) + ItemText.bytes(item, writing))
        }
    }
}

/// `--changes`: one line per event, `+` added, `~` updated, `-` removed, with the short id:
/// `+ 3f2a9c1d qr https://example.com`; with `--raw` the value alone after the id, exact when no terminal reads it
/// (`ValueWriting`): `+ 3f2a9c1d https://example.com`.
final class ChangeLines: ScanPresenter {
    private let output: LineOutput
    private let raw: Bool
    private let names: SourceNames?
    private let writing: ValueWriting

    init(output: LineOutput, raw: Bool = false, names: SourceNames? = nil, writing: ValueWriting = .escaped) {
        self.output = output
        self.raw = raw
        self.names = names
        self.writing = writing
    }

    func changed(_ changes: ScanChanges) throws {
        for (mark, items) in [("-", changes.removed), ("+", changes.added), ("~", changes.updated)] {
            for item in items {
                let start = "\(mark) \(item.shortID) " + (raw ? "" : "\(item.kindName) ")
                let named = names?.prefix(start, file: changes.file) ?? start
                try output.write(lineBytes: Array(named.utf8) + ItemText.bytes(item, writing))
            }
        }
    }
}

/// `--annotate OUT`: every frame with its items' quads, short ids and labels drawn (a video), or for an
/// image extension the last frame. Opened on the first frame, when the size is known for sure.
final class AnnotatedOutput: ScanPresenter {
    private let path: String
    private let fps: Double
    private let regionOfInterest: Bounds?
    private var annotator: Annotator?

    init(path: String, source: SourceInfo, regionOfInterest: Bounds?) {
        self.path = path
        self.regionOfInterest = regionOfInterest
        // A camera may not say its rate; 30 is what a player needs to show it at about the right pace.
        fps = source.framesPerSecond > 0 ? source.framesPerSecond : 30
    }

    func changed(_ changes: ScanChanges) throws {}

    func processed(_ frame: Frame, items: [RecognizedItem]) throws {
        if annotator == nil {
            annotator = Annotator.isImagePath(path) ? try Annotator.image(path: path)
                : try Annotator(path: path, fps: fps, width: frame.width, height: frame.height)
            annotator?.regionOfInterest = regionOfInterest
        }
        try annotator?.add(frame: frame, items: items)
    }

    /// Finishes the file; the error, if any, is the command's to report.
    func finish() throws {
        try annotator?.finish()
    }
}
