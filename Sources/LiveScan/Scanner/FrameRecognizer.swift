import Dispatch
import Foundation

/// One frame's observations: its barcodes (read here unless the read-ahead read them) and its text lines, the two
/// side by side (one core each), each read by the strategy the scan's plan chose (`BarcodeReading`, `TextReading`);
/// then the parts of structured-append sequences complete in this scan become their messages, and linear reads
/// inside a 2-D code, text inside a decoded code, pieces of lines and lines of kinds not asked for are dropped, and only what lies in the region of
/// interest is kept.
struct FrameRecognizer {
    let barcodes: (any BarcodeReading)?
    let text: (any TextReading)?
    /// Structured-append parts seen so far in this scan.
    var sequences = StructuredAppendAssembly()
    /// nil = every line of text; otherwise only lines holding one of these kinds of content.
    let textContentTypes: Set<TextContentType>?

    init(plan: ScanPlan, textContentTypes: Set<TextContentType>?) {
        barcodes = plan.barcodes
        text = plan.text
        self.textContentTypes = textContentTypes
    }

    /// Waits for the text reading's work in progress, if any: call once the scan's last frame is done.
    func stop() {
        text?.stop()
    }

    /// `viewObscured`: the frame shows its view blurred past reading (`ViewClarity`).
    mutating func observations(in frame: Frame, decodedBarcodes: [Observation]?, regionOfInterest: Bounds?,
                               viewObscured: Bool) throws -> [Observation]
    {
        let results = ConcurrentResults()
        let readText: @Sendable () throws -> Void = { [text] in
            results.lines = try text?.lines(in: frame, viewObscured: viewObscured) ?? []
        }
        if let decodedBarcodes {
            results.barcodes = decodedBarcodes
            try readText()
        } else {
            DispatchQueue.concurrentPerform(iterations: 2) { [barcodes] task in
                do {
                    if task == 0 {
                        results.barcodes = try barcodes?.barcodes(in: frame) ?? []
                    } else {
                        try readText()
                    }
                } catch {
                    results.record(error)
                }
            }
        }
        if let error = results.error {
            throw error
        }
        let codes = sequences.assemble(results.barcodes.withoutRepeatedCodes()).withoutReadsInsideCodes()
        let codeBounds = codes.map(\.bounds)
        var lines = results.lines.filter { !$0.bounds.isMostlyCovered(by: codeBounds) }.withoutPiecesOfLines()
        if let wanted = textContentTypes {
            lines = lines.filter { line in wanted.contains { $0.matches(line.transcript ?? "") } }
        }
        let observations = codes + lines
        guard let box = regionOfInterest?.boundingBox else { return observations }
        return observations.filter {
            let center = $0.bounds.center
            return center.x >= box.minX && center.x <= box.maxX && center.y >= box.minY && center.y <= box.maxY
        }
    }
}

/// What the two engines of one frame found, written from two threads (each its own field).
private final class ConcurrentResults: @unchecked Sendable {
    var barcodes: [Observation] = []
    var lines: [Observation] = []
    private let lock = NSLock()
    private(set) var error: Error?

    func record(_ failure: Error) {
        lock.withLock {
            if error == nil {
                error = failure
            }
        }
    }
}
