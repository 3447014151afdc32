import Foundation
import LiveScan
import LiveScanScenes

// Per-frame cost of each engine on one generated 720p frame holding 3 QR codes, 2 linear codes and
// 6 text lines (the `still720` scene), median of N runs after one warm-up, with what each found.
// Run by `make bench-engines`; OMP_THREAD_LIMIT=1 must be set (the Makefile does).

let runs = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 20

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Times `body` `runs` times (after one warm-up) and returns the median in milliseconds and the last result.
func measure<Result>(_ body: () throws -> Result) rethrows -> (milliseconds: Double, result: Result) {
    var result = try body()
    var times: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        result = try body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    return (median(times), result)
}

func row(_ name: String, _ milliseconds: Double, _ found: String) {
    print(name.padding(toLength: 48, withPad: " ", startingAt: 0)
        + String(format: "%9.1f ms   ", milliseconds) + found)
}

do {
    if ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] == nil {
        print("warning: OMP_THREAD_LIMIT is not set; Tesseract figures will be ~9x slower than the scanner's")
    }
    let renderer = try SceneRenderer(scene: ScenePreset.still720.scene)
    let truth = renderer.groundTruth()
    let rendered = try renderer.render(frame: 0)
    let frame = Frame(image: try FrameImage(pixels: rendered.pixels, width: rendered.width, height: rendered.height,
                                            channels: 3), index: 0, time: 0)
    let codes = Set(truth.items.compactMap(\.payload))
    let lines = Set(truth.items.compactMap(\.transcript))
    func codesFound(_ observations: [Observation]) -> String {
        "\(Set(observations.compactMap(\.payloadStringValue)).intersection(codes).count)/\(codes.count) codes"
    }
    func linesExact(_ observations: [Observation]) -> String {
        let read = observations.compactMap(\.transcript)
        let extra = read.filter { !lines.contains($0) }.map { "\"\($0)\"" }
        return "\(Set(read).intersection(lines).count)/\(lines.count) lines exact"
            + (extra.isEmpty ? "" : ", also read: " + extra.joined(separator: ", "))
    }

    print("still720: 1280x720, \(codes.count) codes, \(lines.count) text lines; median of \(runs) runs\n")
    for quality in QualityLevel.allCases {
        let detector = ZXingBarcodeDetector(options: quality.barcodeOptions(symbologies: []))
        let (time, found) = try measure { try detector.detect(in: frame) }
        row("zxing-cpp ReadBarcodes (\(quality.rawValue))", time, codesFound(found))
        // What the any-angle search for linear codes costs on top (a frame whose codes are all read whole).
        var rowsOnly = quality.barcodeOptions(symbologies: [])
        if rowsOnly.readsAnyAngle {
            rowsOnly.readsAnyAngle = false
            let withoutSearch = ZXingBarcodeDetector(options: rowsOnly)
            let (rowsTime, rowsFound) = try measure { try withoutSearch.detect(in: frame) }
            row("  without the any-angle search", rowsTime, codesFound(rowsFound))
        }
        // What reading the opt-in symbologies too would cost (Symbology.isReadByDefault keeps them out).
        let everyOne = ZXingBarcodeDetector(options: quality.barcodeOptions(symbologies: Set(Symbology.allCases)))
        let (everyTime, everyFound) = try measure { try everyOne.detect(in: frame) }
        row("  with the opt-in telepen and dxfilmedge too", everyTime, codesFound(everyFound))
    }
    // The search's worst case: a 720p frame of stripes at many angles and noise, no code; every candidate is cut
    // out and read (at most 8).
    var stripes = [UInt8](repeating: 0, count: 1280 * 720)
    for y in 0..<720 {
        for x in 0..<1280 {
            let block = (x / 160) + 8 * (y / 180), angle = Double(block) * 0.7
            let along = Double(x) * cos(angle) + Double(y) * sin(angle)
            let grain = Double((x &* 7919 &+ y &* 104729) % 64) - 32
            stripes[y * 1280 + x] = UInt8(max(0, min(255, 128 + sin(along * 0.45) * 90 + grain)))
        }
    }
    let striped = Frame(image: try FrameImage(pixels: stripes, width: 1280, height: 720, channels: 1), index: 0,
                        time: 0)
    for quality in QualityLevel.allCases where quality.barcodeOptions(symbologies: []).readsAnyAngle {
        var options = quality.barcodeOptions(symbologies: [])
        let (searchTime, _) = try measure { try ZXingBarcodeDetector(options: options).detect(in: striped) }
        options.readsAnyAngle = false
        let (rowsTime, _) = try measure { try ZXingBarcodeDetector(options: options).detect(in: striped) }
        row("stripes, no code (\(quality.rawValue)), any angle", searchTime,
            String(format: "%.1f ms without", rowsTime))
        options.symbologies = Set(Symbology.allCases)
        options.readsAnyAngle = true
        let (everyTime, everyFound) = try measure { try ZXingBarcodeDetector(options: options).detect(in: striped) }
        row("  with the opt-in telepen and dxfilmedge too", everyTime, "\(everyFound.count) codes")
    }
    let (locatorTime, located) = try measure { try OpenCVQRCodeDetector().detect(in: frame) }
    row("OpenCV QRCodeDetector locate + zxing decode", locatorTime, codesFound(located) + " (QR only)")

    let recognizer = try TesseractTextRecognizer()
    let barcodes = try ZXingBarcodeDetector().detect(in: frame).map(\.bounds)
    let (regionTime, regions) = try measure { try recognizer.lineRegions(in: frame) }
    row("text line localisation (gradient grouping)", regionTime, "\(regions.count) candidate regions")
    let (linesTime, read) = try measure { try recognizer.recognize(in: frame, excluding: barcodes) }
    row("localise + Tesseract PSM 7 per line crop", linesTime, linesExact(read))
    let perLine = measure { (try? recognizer.readLine(in: frame, region: regions[0])) ?? nil }
    row("  one line crop (PSM 7)", perLine.milliseconds, perLine.result?.transcript.map { "\"\($0)\"" } ?? "-")
    let (pageTime, page) = try measure { try recognizer.recognizePage(in: frame) }
    row("Tesseract whole frame (PSM 3), for comparison", pageTime, linesExact(page))

    let (frameTime, all) = try measure {
        try ZXingBarcodeDetector().detect(in: frame) + recognizer.recognize(in: frame, excluding: barcodes)
    }
    row("one frame, barcodes + text (balanced)", frameTime, "\(all.count) observations")
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
