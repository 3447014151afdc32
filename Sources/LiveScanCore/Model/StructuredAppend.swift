import Foundation

/// One symbol of a structured-append sequence: a message split across several codes (up to 16 QR codes, or
/// PDF417 symbols), each of which says where in the message it belongs.
public struct StructuredAppendPart: Hashable, Sendable {
    /// Its place in the sequence, from 0.
    public var index: Int
    /// How many symbols the sequence has.
    public var count: Int
    /// What every symbol of the sequence shares (QR: the message's parity byte; PDF417: its file id).
    public var sequenceID: String

    public init(index: Int, count: Int, sequenceID: String) {
        self.index = index
        self.count = count
        self.sequenceID = sequenceID
    }
}

/// The structured-append sequences of one scan, put together across its frames. A sequence printed on several
/// pages, labels or screens is seen a part or a few at a time; a reader that merges only the parts of one frame
/// (as zxing-cpp does) never gives its message. Once every part has been seen, in whichever frames, each frame
/// holding some of them reports the message instead, as one code where those parts are; before that, the parts
/// are reported as they are, as codes of their own.
package struct StructuredAppendAssembly: Sendable {
    private struct Sequence: Hashable {
        var symbology: Symbology
        var sequenceID: String
        var count: Int
    }

    /// The latest reading of each part seen so far, by sequence and place.
    private var parts: [Sequence: [Int: Observation]] = [:]

    package init() {}

    /// `codes` (one frame's), with the parts of every sequence now complete replaced by its message.
    package mutating func assemble(_ codes: [Observation]) -> [Observation] {
        var inView: [Sequence: [Observation]] = [:]
        for code in codes {
            guard let sequence = Self.sequence(of: code), let part = code.structuredAppend else { continue }
            parts[sequence, default: [:]][part.index] = code
            inView[sequence, default: []].append(code)
        }
        var assembled: [Observation] = []
        var reported: Set<Sequence> = []
        for code in codes {
            guard let sequence = Self.sequence(of: code), let seen = parts[sequence], seen.count == sequence.count
            else {
                assembled.append(code)
                continue
            }
            if reported.insert(sequence).inserted {
                assembled.append(Self.message(of: (0..<sequence.count).compactMap { seen[$0] },
                                              symbology: sequence.symbology, at: inView[sequence] ?? [code]))
            }
        }
        return assembled
    }

    private static func sequence(of code: Observation) -> Sequence? {
        guard code.kind == .barcode, let symbology = code.symbology, let part = code.structuredAppend,
              part.count > 1, (0..<part.count).contains(part.index)
        else { return nil }
        return Sequence(symbology: symbology, sequenceID: part.sequenceID, count: part.count)
    }

    /// The message of `parts` (in order): their bytes one after another. As text: those bytes when they are UTF-8
    /// (a character may be split between two symbols, which each part's own text then garbles); else the parts'
    /// texts joined, each converted from its own character set. Its bounds are the box around the parts `inView`.
    private static func message(of parts: [Observation], symbology: Symbology, at inView: [Observation])
        -> Observation
    {
        let data = parts.reduce(into: Data()) { $0.append($1.payloadData ?? Data()) }
        let texts = parts.compactMap(\.payloadStringValue)
        let text = String(data: data, encoding: .utf8) ?? (texts.count == parts.count ? texts.joined() : nil)
        let boxes = inView.map(\.bounds.boundingBox)
        let (minX, minY) = (boxes.map(\.minX).min() ?? 0, boxes.map(\.minY).min() ?? 0)
        let (maxX, maxY) = (boxes.map(\.maxX).max() ?? 0, boxes.map(\.maxY).max() ?? 0)
        return .barcode(symbology, data: data, string: text,
                        bounds: Bounds(x: minX, y: minY, width: maxX - minX, height: maxY - minY),
                        symbologyIdentifier: parts[0].symbologyIdentifier)
    }
}
