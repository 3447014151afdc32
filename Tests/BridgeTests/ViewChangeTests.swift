import Foundation
import Testing
@testable import LiveScan

/// `ViewChange` on real pixels: a hand-held drift and a line appearing are the same view, another picture is a new
/// one.
@Suite struct ViewChangeTests {
    @Test func aDriftIsTheSameViewAndAnotherPictureANewOne() throws {
        let drifting = try DriftingTurnedLine(count: 4)
        var change = ViewChange()
        for index in 0..<4 {
            #expect(try !change.isNewView(drifting.frame(index)), "frame \(index) of a drift")
        }
        // A line on a page wide enough that its cells are few of the page's.
        let line = try turnedLine(DriftingTurnedLine.text, pixelHeight: 32, degrees: 0, margin: 200).frame
        func page(_ grey: UInt8) throws -> Frame {
            let pixels = [UInt8](repeating: grey, count: line.width * line.height)
            return Frame(image: try FrameImage(pixels: pixels, width: line.width, height: line.height, channels: 1),
                         index: 0, time: 0)
        }
        #expect(try !change.isNewView(page(255)), "a frame of another size is compared with nothing")
        #expect(try !change.isNewView(line), "a line appearing on the page is new text, not a new view")
        #expect(try change.isNewView(page(110)), "other paper: every cell's mean moved by 100 grey levels or more")
        #expect(try !change.isNewView(page(110)))
    }
}
