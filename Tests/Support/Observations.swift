import Foundation
import LiveScanCore

/// A barcode observation whose top-left corner is at (x, y).
public func code(_ payload: String, x: Double, y: Double, size: Double = 80, symbology: Symbology = .qr)
    -> Observation
{
    .barcode(symbology, data: Data(payload.utf8), string: payload, bounds: Bounds(x: x, y: y, width: size, height: size))
}

/// A text observation, a 300 x 40 line whose top-left corner is at (x, y).
public func line(_ transcript: String, x: Double, y: Double, confidence: Double = 0.9) -> Observation {
    .text(transcript, confidence: confidence, bounds: Bounds(x: x, y: y, width: 300, height: 40))
}
