import Foundation
import Testing
@testable import LiveScanCore
import LiveScanTestSupport

/// Structured-append sequences put together across the frames of one scan.
@Suite struct StructuredAppendTests {
    private func part(_ payload: Data, text: String?, index: Int, of count: Int, id: String = "42", x: Double,
                      symbology: Symbology = .qr) -> Observation {
        var observation = code("", x: x, y: 100, symbology: symbology)
        observation.payloadData = payload
        observation.payloadStringValue = text
        observation.structuredAppend = StructuredAppendPart(index: index, count: count, sequenceID: id)
        return observation
    }

    private func part(_ text: String, index: Int, of count: Int, id: String = "42", x: Double) -> Observation {
        part(Data(text.utf8), text: text, index: index, of: count, id: id, x: x)
    }

    /// Parts seen in different frames are reported as they are until the last is seen; from then on, a frame
    /// holding any of them reports the message, once, where its parts are. Other codes pass through.
    @Test func aSequenceSeenPartByPartBecomesItsMessageWhenComplete() {
        var assembly = StructuredAppendAssembly()
        let other = code("OTHER", x: 600, y: 100)
        let first = assembly.assemble([part("Hello, ", index: 0, of: 3, x: 100), other])
        #expect(first.map(\.payloadStringValue) == ["Hello, ", "OTHER"])
        let second = assembly.assemble([part("wor", index: 1, of: 3, x: 200)])
        #expect(second.map(\.payloadStringValue) == ["wor"])
        let third = assembly.assemble([other, part("wor", index: 1, of: 3, x: 200), part("ld", index: 2, of: 3, x: 300)])
        #expect(third.map(\.payloadStringValue) == ["OTHER", "Hello, world"])
        #expect(third[1].payloadData == Data("Hello, world".utf8))
        #expect(third[1].structuredAppend == nil)
        // Around the two parts in view (80 px wide, from x = 200 and 300), not the first, seen a frame earlier.
        #expect(third[1].bounds.boundingBox.minX == 200 && third[1].bounds.boundingBox.maxX == 380)
        let later = assembly.assemble([part("Hello, ", index: 0, of: 3, x: 100)])
        #expect(later.map(\.payloadStringValue) == ["Hello, world"])
    }

    /// Parts of another sequence (another id, another length, another symbology) are not mixed in.
    @Test func partsOfOtherSequencesStayApart() {
        var assembly = StructuredAppendAssembly()
        _ = assembly.assemble([part("A", index: 0, of: 2, id: "1", x: 100)])
        let otherID = assembly.assemble([part("B", index: 1, of: 2, id: "2", x: 200)])
        #expect(otherID.map(\.payloadStringValue) == ["B"])
        let otherCount = assembly.assemble([part("C", index: 1, of: 3, id: "1", x: 200)])
        #expect(otherCount.map(\.payloadStringValue) == ["C"])
        let otherSymbology = assembly.assemble([part(Data("D".utf8), text: "D", index: 1, of: 2, id: "1", x: 200,
                                                     symbology: .pdf417)])
        #expect(otherSymbology.map(\.payloadStringValue) == ["D"])
        let same = assembly.assemble([part("E", index: 1, of: 2, id: "1", x: 200)])
        #expect(same.map(\.payloadStringValue) == ["AE"])
    }

    /// A character split between two symbols is whole in the message; parts in another character set (text
    /// converted, bytes not UTF-8) give their texts joined and their bytes as they are.
    @Test func theMessageIsItsPartsBytesInOrder() {
        var assembly = StructuredAppendAssembly()
        let euro = Data("€".utf8)  // E2 82 AC
        _ = assembly.assemble([part(euro.prefix(1), text: "\u{FFFD}", index: 0, of: 2, x: 100)])
        let split = assembly.assemble([part(euro.suffix(2), text: "\u{FFFD}", index: 1, of: 2, x: 200)])
        #expect(split.map(\.payloadData) == [euro])
        #expect(split.map(\.payloadStringValue) == ["€"])

        var latin = StructuredAppendAssembly()
        _ = latin.assemble([part(Data([0x41, 0xE9]), text: "Aé", index: 0, of: 2, id: "7", x: 100)])
        let joined = latin.assemble([part(Data([0xE8]), text: "è", index: 1, of: 2, id: "7", x: 200)])
        #expect(joined.map(\.payloadData) == [Data([0x41, 0xE9, 0xE8])])
        #expect(joined.map(\.payloadStringValue) == ["Aéè"])
    }
}
