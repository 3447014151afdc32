import Foundation

/// The event log: JSON Lines, one object per line, written and flushed line by line so that a crash or
/// a pulled plug loses at most the line being written. This type is the one place its schema lives;
/// the README documents it field by field.
///
/// Version 1:
/// - first line: `{"event":"start","v":1,"source":S,"width":W,"height":H,"fps":F,"config":{...}}`; `source` as the
///   user gave it, for several image arguments the folder that holds them all
/// - changes: `{"event":"add"|"update"|"remove","frame":N,"time":T[,"file":F],"id":UUID,"kind":"barcode"|"text",
///   "symbology":S,"payload":P[,"payload_b64":B],"content":{"type":T,...}` (barcodes) or `"transcript":S`
///   (text)
///   `,"confidence":C,"bounds":[[x,y] x4],"seen_frame":N,"seen_time":T}`; `frame` is the 0-based decoded
///   frame that decided the change, `time` its media time in seconds, bounds in source pixels topLeft,
///   topRight, bottomRight, bottomLeft; `seen_frame`/`seen_time` the last frame that saw the item (on a
///   remove, earlier than `frame` by the grace period). A remove repeats the item's last state. `file` names the
///   image file of frame N when the start line's `source` is not that file itself: a folder, or several image
///   arguments (added within v1).
///   `payload_b64` is present when the payload bytes are not valid UTF-8 (then `payload` is zxing-cpp's
///   best reading of them). `content` says what the
///   payload means (`PayloadContent.logFields`): `{"type":"url"|"email"|"phone"|"sms"|"geo"|"wifi"|
///   "contact"|"event"|"gs1"|"emvco"|"text", ...fields}`.
/// - a picture size that changed mid-way (a stream's resolution): `{"event":"resize","frame":N,"time":T,
///   "width":W,"height":H}`: frames are W x H from frame N on, and so are the bounds of changes decided in them
///   (frame N's own changes come just before this line; added within v1)
/// - a camera or stream that stopped and was reopened (`--reconnect`): `{"event":"reconnect","frame":N,"time":T,
///   "outage":S,"reason":R}`: frame N is the first from the reopened source, S the seconds without frames
///   (wall clock, from the failure to the reopening), R why it stopped (added within v1)
/// - the user chose an item (VisionKit's tap: the listing's Enter, a click in `--serve`'s page):
///   `{"event":"tap","frame":N,"time":T[,"file":F],"id":UUID,...}` with the item's fields as a change line has
///   them, as it was when chosen; frame N is the last frame delivered before the tap (added within v1)
/// - last line: `{"event":"end","frame":N,"time":T,"reason":"eof"|"stopped"|"interrupted"|"error",
///   "frames_processed":P,"frames_dropped":D[,"frames_undecodable":U][,"error":E]}`: `eof` the source ended,
///   `stopped` the app asked (`--once`, the output's reader left), `interrupted` a signal, `error` the source, an
///   engine or an output failed (`stopped` was added within v1); `frames_undecodable`, present when not 0, the
///   frames of a video that did not decode and were skipped, the frames after them scanned (added within v1)
public enum EventLog {
    /// The schema version written in the start line's `v`.
    public static let version = 1

    /// The kinds of line, as written in `event`.
    public enum EventName: String, Sendable, CaseIterable {
        case start, add, update, remove, resize, reconnect, tap, end
    }

    /// The start line's `config`: what the scan was asked to do, in this order:
    /// `{"types":[...],"languages":[...][,"languages_requested":[...]],"quality":Q,"multiple_items":B,
    /// "tracker":{knob:value,...}[,"region_of_interest":[x,y,width,height]]}`.
    public struct Config: Sendable, Equatable {
        /// Symbology names and `text`; every symbology is `all-barcodes`.
        public var types: [String]
        /// The languages text is read in, as Tesseract names them (`eng`, `chi_sim`), each once: made from
        /// `requestedLanguages` by `TextLanguage.tesseractNames`.
        public var languages: [String]
        /// `languages_requested`: the languages as the user gave them (`en-US`, `eng+deu`); nil (absent) when none
        /// were given (added within v1).
        public var requestedLanguages: [String]?
        public var quality: QualityLevel
        /// false with `--single` (VisionKit's `recognizesMultipleItems`).
        public var multipleItems: Bool
        /// The knobs, named as `TrackerConfiguration.fields` names them.
        public var tracker: TrackerConfiguration
        /// In the frame's pixels; absent when the whole frame is scanned (added within v1).
        public var regionOfInterest: Bounds?

        public init(types: [String], languages: [String], requestedLanguages: [String]? = nil, quality: QualityLevel,
                    multipleItems: Bool, tracker: TrackerConfiguration, regionOfInterest: Bounds? = nil) {
            self.types = types
            self.languages = languages
            self.requestedLanguages = requestedLanguages
            self.quality = quality
            self.multipleItems = multipleItems
            self.tracker = tracker
            self.regionOfInterest = regionOfInterest
        }

        /// Every symbology read by default (all but the opt-in `telepen` and `dxfilmedge`), as `types` names it.
        public static let allBarcodes = "all-barcodes"

        fileprivate var json: String {
            var object = JSONLine()
            object.add("types", types)
            object.add("languages", languages)
            if let requestedLanguages {
                object.add("languages_requested", requestedLanguages)
            }
            object.add("quality", quality.rawValue)
            object.add("multiple_items", multipleItems)
            var knobs = JSONLine()
            for (name, value) in tracker.fields {
                knobs.add(name, value)
            }
            object.add("tracker", raw: knobs.text)
            if let regionOfInterest {
                object.add("region_of_interest", numbers: EventLog.rectangle(regionOfInterest))
            }
            return object.text
        }
    }

    /// The start line.
    public static func startLine(source: SourceInfo, config: Config) -> String {
        var line = JSONLine()
        line.add("event", EventName.start.rawValue)
        line.add("v", version)
        line.add("source", FileNameBytes.displayName(source.name))
        line.add("width", source.width)
        line.add("height", source.height)
        line.add("fps", source.framesPerSecond)
        line.add("config", raw: config.json)
        return line.text
    }

    /// The line saying that frames are `width` x `height` from frame `frameIndex` on.
    public static func resizeLine(frameIndex: Int, time: Double, width: Int, height: Int) -> String {
        var line = JSONLine()
        line.add("event", EventName.resize.rawValue)
        line.add("frame", frameIndex)
        line.add("time", time)
        line.add("width", width)
        line.add("height", height)
        return line.text
    }

    /// The line saying that the source stopped (`reason`) and was reopened after `outage` seconds, its first frame
    /// from then on `frameIndex`.
    public static func reconnectLine(frameIndex: Int, time: Double, outage: Double, reason: String) -> String {
        var line = JSONLine()
        line.add("event", EventName.reconnect.rawValue)
        line.add("frame", frameIndex)
        line.add("time", time)
        line.add("outage", outage)
        line.add("reason", reason)
        return line.text
    }

    /// One line per item change, removes first, then adds, then updates (the order of delivery). `source` is the
    /// start line's: a frame's file is written unless it is the source itself (one image file says it once).
    public static func changeLines(_ changes: ScanChanges, source: String? = nil) -> [String] {
        let file = changes.file == source ? nil : changes.file
        return changes.removed.map { changeLine(.remove, $0, changes, file: file) }
            + changes.added.map { changeLine(.add, $0, changes, file: file) }
            + changes.updated.map { changeLine(.update, $0, changes, file: file) }
    }

    /// The line saying that the user chose `item` after frame `frameIndex` (`DataScannerDelegate`'s `didTapOn`).
    public static func tapLine(_ item: RecognizedItem, frameIndex: Int, time: Double, file: String? = nil,
                               source: String? = nil) -> String {
        var line = JSONLine()
        line.add("event", EventName.tap.rawValue)
        line.add("frame", frameIndex)
        line.add("time", time)
        if let file, file != source {
            line.add("file", file)
        }
        addItemFields(item, to: &line)
        return line.text
    }

    /// The items in view after frame `frameIndex`, as `--serve`'s /items serves them:
    /// `{"frame":N,"time":T,"width":W,"height":H[,"region_of_interest":[x,y,w,h]],"items":[{"id":...}, ...]}`, each
    /// item with the fields a change line gives it (`id` to `seen_time`).
    public static func itemsDocument(_ items: [RecognizedItem], frameIndex: Int, time: Double, width: Int,
                                     height: Int, regionOfInterest: Bounds? = nil) -> String {
        var document = JSONLine()
        document.add("frame", frameIndex)
        document.add("time", time)
        document.add("width", width)
        document.add("height", height)
        if let regionOfInterest {
            document.add("region_of_interest", numbers: rectangle(regionOfInterest))
        }
        let objects = items.map { item in
            var object = JSONLine()
            addItemFields(item, to: &object)
            return object.text
        }
        document.add("items", raw: JSONLine.array(objects))
        return document.text
    }

    /// A region of interest as the start line's config and /items give it: `[x, y, width, height]` of its box.
    private static func rectangle(_ region: Bounds) -> [Double] {
        let box = region.boundingBox
        return [box.minX, box.minY, box.maxX - box.minX, box.maxY - box.minY]
    }

    /// The end line.
    public static func endLine(_ outcome: ScanOutcome) -> String {
        var line = JSONLine()
        line.add("event", EventName.end.rawValue)
        line.add("frame", max(outcome.lastFrameIndex, 0))
        line.add("time", outcome.lastTime)
        line.add("reason", outcome.reason.rawValue)
        line.add("frames_processed", outcome.framesProcessed)
        line.add("frames_dropped", outcome.framesDropped)
        if outcome.framesUndecodable > 0 {
            line.add("frames_undecodable", outcome.framesUndecodable)
        }
        if let error = outcome.error {
            line.add("error", error.description)
        }
        return line.text
    }

    /// A content object, its fields in the parser's order.
    static func json(_ fields: [PayloadContent.LogField]) -> String {
        var object = JSONLine()
        for field in fields {
            object.add(field.key, raw: json(field.value))
        }
        return object.text
    }

    static func json(_ value: PayloadContent.LogValue) -> String {
        switch value {
        case let .string(text): return JSONLine.quoted(text)
        case let .number(number): return JSONLine.number(number)
        case let .bool(flag): return flag ? "true" : "false"
        case let .array(values): return JSONLine.array(values.map(json))
        case let .object(fields): return json(fields)
        }
    }

    private static func changeLine(_ event: EventName, _ item: RecognizedItem, _ changes: ScanChanges,
                                   file: String?) -> String {
        var line = JSONLine()
        line.add("event", event.rawValue)
        line.add("frame", changes.frameIndex)
        line.add("time", changes.time)
        if let file {
            line.add("file", file)
        }
        addItemFields(item, to: &line)
        return line.text
    }

    /// An item's fields, from `id` to `seen_time`, as every line and document that names an item gives them.
    private static func addItemFields(_ item: RecognizedItem, to line: inout JSONLine) {
        line.add("id", item.id.uuidString.lowercased())
        switch item {
        case let .barcode(barcode):
            line.add("kind", "barcode")
            line.add("symbology", barcode.symbology.rawValue)
            let utf8 = String(data: barcode.payloadData, encoding: .utf8)
            line.add("payload", utf8 ?? barcode.payloadStringValue ?? "")
            if utf8 == nil {
                line.add("payload_b64", barcode.payloadData.base64EncodedString())
            }
            line.add("content", raw: json(barcode.content.logFields))
            line.add("confidence", 1.0)
        case let .text(text):
            line.add("kind", "text")
            line.add("transcript", text.transcript)
            line.add("confidence", (text.confidence * 1000).rounded() / 1000)
        }
        let corners = item.bounds.corners.map {
            JSONLine.array([JSONLine.number(($0.x * 10).rounded() / 10), JSONLine.number(($0.y * 10).rounded() / 10)])
        }
        line.add("bounds", raw: JSONLine.array(corners))
        line.add("seen_frame", item.frameIndex)
        line.add("seen_time", item.time)
    }
}
