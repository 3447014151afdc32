import Foundation
import Testing
import LiveScanScenes

/// A file is an image by what it holds, not only by its name: a PNG saved as `qr.dat` and a PDF holding one JPEG
/// page (as PIL writes one; FFmpeg reads it as a one-frame MJPEG) are printed as images are, one `qr:` line per
/// code, where they were printed as a live source's events (`+ 3f2a9c1d qr ...`, `- ...`).
@Suite struct UnfamiliarImageFileTests {
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
    }

    @Test func aPNGUnderAnotherExtensionIsAnImage() throws {
        let png = try scratch.qrStill("qr.png", payload: "DAT-QR")
        let dat = scratch.path("qr.dat")
        try FileManager.default.moveItem(atPath: png, toPath: dat)
        let result = try Livescan.run(["scan", "--types", "qr", dat])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines == ["qr:DAT-QR"])
        // It is an image to the options too: --every is for video files.
        let every = try Livescan.run(["scan", "--every", "2", dat])
        #expect(every.status == 2 && every.errorLines.first?.contains("is an image") == true, "\(every.errorLines)")
    }

    @Test func aPDFOfOneJPEGPageIsPrintedAsAnImage() throws {
        let jpeg = scratch.path("page.jpg")
        try SceneRenderer(scene: SceneRenderer.still(symbology: .qr, payload: "PDF-QR").scene).writeImage(to: jpeg)
        let pdf = scratch.path("page.pdf")
        try Self.pdf(holding: Data(contentsOf: URL(fileURLWithPath: jpeg))).write(to: URL(fileURLWithPath: pdf))
        let result = try Livescan.run(["scan", "--types", "qr", pdf])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines == ["qr:PDF-QR"])
    }

    /// A one-page PDF whose page is `jpeg` (DCTDecode), laid out as PIL's PDF writer lays it out.
    static func pdf(holding jpeg: Data) -> Data {
        let size = "/Width 16 /Height 16"
        let objects: [Data] = [
            Data("<< /Type /Catalog /Pages 2 0 R >>".utf8),
            Data("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".utf8),
            Data(("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 16 16] /Resources << /XObject << /I0 4 0 R >> >> "
                + "/Contents 5 0 R >>").utf8),
            Data(("<< /Type /XObject /Subtype /Image \(size) /ColorSpace /DeviceRGB /BitsPerComponent 8 "
                + "/Filter /DCTDecode /Length \(jpeg.count) >>\nstream\n").utf8) + jpeg + Data("\nendstream".utf8),
            Data("<< /Length 24 >>\nstream\nq 16 0 0 16 0 0 cm /I0 Do Q\nendstream".utf8),
        ]
        var file = Data("%PDF-1.4\n".utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(file.count)
            file += Data("\(index + 1) 0 obj\n".utf8) + object + Data("\nendobj\n".utf8)
        }
        let table = file.count
        file += Data("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets {
            file += Data((String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n").utf8)
        }
        file += Data("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(table)\n%%EOF\n".utf8)
        return file
    }
}
