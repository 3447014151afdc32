import Foundation

/// The engines of a scan: what reads barcodes, what reads text, and what finds QR codes that do not decode
/// (for guidance). Made from what the scanner looks for and its quality level (`QualityLevel`'s knobs), or
/// given by the app (`DataScanner(recognizedDataTypes:barcodeDetector:textRecognizer:)`).
struct ScanEngines {
    var barcodeDetector: (any BarcodeDetector)?
    var text: TextEngines?
    var qrLocator: OpenCVQRLocator?

    /// `stillImages`: the source `holdsStillImages` (an image or a folder of them); `isLive`: it `isLive` (a camera,
    /// a stream). Throws when Tesseract cannot start (a missing language).
    static func make(for types: Set<RecognizedDataType>, qualityLevel: QualityLevel, isGuidanceEnabled: Bool,
                     stillImages: Bool, isLive: Bool) throws -> ScanEngines {
        var symbologies = Set<Symbology>(), wantsBarcodes = false
        var languages: [String] = [], wantsText = false
        for type in types {
            switch type {
            case let .barcode(list):
                wantsBarcodes = true
                symbologies.formUnion(list.isEmpty ? Symbology.readByDefault : list)
            case let .text(list, _):
                wantsText = true
                languages += list
            }
        }
        // Tesseract's names from here on: `en-US`, `en` and `eng` are one language, which the learned reader reads.
        languages = TextLanguage.tesseractNames(languages)
        var engines = ScanEngines()
        if wantsBarcodes {
            let zxing = ZXingBarcodeDetector(options: qualityLevel.barcodeOptions(
                symbologies: symbologies, stillImages: stillImages))
            engines.qrLocator = isGuidanceEnabled && symbologies.contains(.qr) ? OpenCVQRLocator() : nil
            engines.barcodeDetector = qualityLevel.usesQRLocator && symbologies.contains(.qr)
                ? CombinedBarcodeDetector([zxing, OpenCVQRCodeDetector()]) : zxing
        }
        if wantsText {
            var options = qualityLevel.textOptions(languages: languages.isEmpty ? ["eng"] : languages,
                                                   stillImages: stillImages)
            options.learnedNetworkThreads = learnedNetworkThreads(isLive: isLive)
            engines.text = try TextEngines(options: options)
        }
        return engines
    }

    /// The threads the learned networks run on. A file's scan waits for them: a video's frame loop for each
    /// detector turn's boxes (`TextDetectorCadence.fileLag`), idle while it waits, and a still image for its boxes
    /// and their reads. Shared by two cores, a 720p turn and an image's reads take less of that wait; the results are
    /// the same. A live scan's detector takes only what its frame loop leaves (`TextDetectorCadence`: lowest
    /// priority), one thread. The cores counted are those the process may run on (`ProcessorCores`: a Slurm task
    /// given one CPU gets one thread). Measured on 2 cores (docs/benchmark-history.md, "The learned networks'
    /// threads"); more than two were not.
    static func learnedNetworkThreads(isLive: Bool) -> Int {
        isLive ? 1 : min(2, ProcessorCores.usable())
    }
}
