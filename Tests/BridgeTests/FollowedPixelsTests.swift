import Foundation
import Testing
@testable import LiveScan

@Suite struct FollowedPixelsTests {
    /// A printed line on a 640x360 canvas with its top-left corner at (`left`, `top`) (it may reach past the edges).
    private func frame(_ line: (pixels: [UInt8], width: Int, height: Int), left: Int, top: Int) throws -> Frame {
        let (width, height) = (640, 360)
        var pixels = [UInt8](repeating: 255, count: width * height)
        for row in 0..<line.height where (0..<height).contains(top + row) {
            for column in 0..<line.width where (0..<width).contains(left + column) {
                pixels[(top + row) * width + left + column] = line.pixels[row * line.width + column]
            }
        }
        return Frame(image: try FrameImage(pixels: pixels, width: width, height: height, channels: 1), index: 0, time: 0)
    }

    /// A printed line's picture, and the box a detector gives it there: its ink with a margin of 6 px.
    private func printedLine() throws -> (line: (pixels: [UInt8], width: Int, height: Int), box: Bounds) {
        let (picture, ink) = try turnedLine("Cavenagh Rd", pixelHeight: 32, degrees: 0, margin: 8)
        let inkBox = ink.boundingBox
        let box = Bounds(x: inkBox.minX - 6, y: inkBox.minY - 6, width: inkBox.maxX - inkBox.minX + 12,
                         height: inkBox.maxY - inkBox.minY + 12)
        return ((try picture.bridgeImage().grayPixels(), picture.width, picture.height), box)
    }

    /// The line's pixels in `frame`, its picture's top-left corner at (`left`, `top`).
    private func pixels(of printed: (line: (pixels: [UInt8], width: Int, height: Int), box: Bounds), left: Int,
                        top: Int, in frame: Frame) throws -> FollowedPixels {
        try #require(try FollowedPixels(printed.box.offsetBy(dx: Double(left), dy: Double(top)), in: frame))
    }

    /// A line 16 px below the frame's top edge, searched as far around as a turn's box carried over `fileLag`
    /// frames is (44 px), is found where the camera moved it, 12 px lower, by all its pixels: the wide search reaches
    /// past the edge, but the line stayed in view. Looked for by the rows that stay in the frame wherever the search
    /// could take it (in a hand-held clip, a sign's lowest 25 of 53), it was lost.
    @Test func aLineNearTheEdgeSearchedWideIsFoundWhole() throws {
        let printed = try printedLine()
        // The box's top 16 px below the frame's.
        let top = 16 - Int(printed.box.boundingBox.minY)
        var pixels = try pixels(of: printed, left: 150, top: top, in: try frame(printed.line, left: 150, top: top))
        let radius = TextDetectorCadence.reach(overFrames: TextDetectorCadence.fileLag)
        #expect(pixels.shortSide < 2 * (radius - 16), "the box should be short enough to be lost by its rows that stay in view")
        let after = try frame(printed.line, left: 153, top: top + 12)
        let move = try #require(try pixels.find(in: after, step: (0, 0), radius: radius, minScore: 0.8,
                                                partlyOutOfFrame: true))
        #expect(abs(move.dx - 3) < 0.5 && abs(move.dy - 12) < 0.5, "moved by \(move)")
    }

    /// A line the camera turns away from, followed from frame to frame, is found by its part still in view: here
    /// its box's top 4 rows past the frame's top edge, 10 px up from the frame before, as its last step went.
    @Test func aLinePartlyOutOfTheFrameIsFoundByItsPartInView() throws {
        let printed = try printedLine()
        let top = 6 - Int(printed.box.boundingBox.minY)
        var pixels = try pixels(of: printed, left: 150, top: top, in: try frame(printed.line, left: 150, top: top))
        let after = try frame(printed.line, left: 148, top: top - 10)
        #expect(try pixels.find(in: after, step: (-2, -10), radius: 14, minScore: 0.8) == nil,
                "whole, the line is not in the frame")
        let move = try #require(try pixels.find(in: after, step: (-2, -10), radius: 14, minScore: 0.8,
                                                partlyOutOfFrame: true))
        #expect(abs(move.dx + 2) < 0.5 && abs(move.dy + 10) < 0.5, "moved by \(move)")
    }
}
