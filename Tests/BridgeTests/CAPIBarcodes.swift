internal import CBridge
@testable import LiveScan
import LiveScanScenes

/// What one CB_Barcode_read of a rendered frame returned, copied out before the array is freed.
struct CAPIRead {
    var status: UInt32
    var texts: [String]
    var symbologies: [Symbology?]
}

/// Reads `rendered` through the C API directly (CB_Image_new, CB_Barcode_read, CB_Barcodes_free), as a C caller
/// would: at balanced's knobs, with or without the any-angle read.
func readThroughCAPI(_ rendered: RenderedFrame, anyAngle: Bool) throws -> CAPIRead {
    var image: OpaquePointer?
    let made = rendered.pixels.withUnsafeBufferPointer { pixels in
        CB_Image_new(pixels.baseAddress, Int32(rendered.width), Int32(rendered.height), 3, Int32(rendered.width * 3),
                     &image)
    }
    guard made == CB_OK else {
        return CAPIRead(status: made.rawValue, texts: [], symbologies: [])
    }
    defer { CB_Image_delete(image) }
    var options = CB_BarcodeOptions()
    options.try_harder = 1
    options.try_rotate = 1
    options.max_dimension = 1920
    options.try_any_angle = anyAngle ? 1 : 0
    var barcodes: UnsafeMutablePointer<CB_Barcode>?
    var count = 0
    let status = CB_Barcode_read(image, &options, &barcodes, &count)
    defer { CB_Barcodes_free(barcodes, count) }
    var read = CAPIRead(status: status.rawValue, texts: [], symbologies: [])
    for index in 0..<count {
        let barcode = barcodes![index]
        read.texts.append(String(decoding: UnsafeRawBufferPointer(start: barcode.text, count: barcode.text_length),
                                 as: UTF8.self))
        read.symbologies.append(Symbology(formatFlag: barcode.format))
    }
    return read
}
