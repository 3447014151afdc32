import Foundation
import LiveScan

/// zbarimg's closing line ("scanned 5 barcode symbols from 1 images in 0.05 seconds"), on standard error: what
/// the command's scans found, and in how many images or frames. Only when standard error is a terminal, where
/// a person reads it: a script that keeps standard error for failures gets no line it must filter out, and
/// standard output stays the scan's lines alone.
struct ScanSummary {
    private(set) var barcodes = 0
    private(set) var textLines = 0
    private(set) var images = 0
    private(set) var frames = 0

    static var isWanted: Bool { Terminal.isStandardErrorInteractive }

    /// Counts the items `changes` adds.
    mutating func count(_ changes: ScanChanges) {
        for item in changes.added {
            if case .text = item { textLines += 1 } else { barcodes += 1 }
        }
    }

    /// Counts a scan that processed `framesProcessed` pictures: images when `isImages`, else a video's frames.
    mutating func scanned(_ framesProcessed: Int, isImages: Bool) {
        if isImages { images += framesProcessed } else { frames += framesProcessed }
    }

    /// `scanned 3 barcode symbols and 1 text line from 2 images`; barcodes and text as the scan looked for them.
    func line(barcodesWanted: Bool, textWanted: Bool) -> String {
        func counted(_ count: Int, _ one: String, _ many: String) -> String { "\(count) \(count == 1 ? one : many)" }
        let found = (barcodesWanted ? [counted(barcodes, "barcode symbol", "barcode symbols")] : [])
            + (textWanted ? [counted(textLines, "text line", "text lines")] : [])
        let pictures = (images > 0 || frames == 0 ? [counted(images, "image", "images")] : [])
            + (frames > 0 ? [counted(frames, "frame", "frames")] : [])
        return "scanned " + found.joined(separator: " and ") + " from " + pictures.joined(separator: " and ")
    }
}
