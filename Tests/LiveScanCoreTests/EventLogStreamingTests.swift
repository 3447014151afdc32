import Foundation
import Testing
@testable import LiveScanCore

/// `livescan report` streams a log: any size, any garbage, in bounded memory, with the same report as a whole read.
@Suite struct EventLogStreamingTests {
    /// The lines `read` hands on for `bytes` fed through a pipe by another thread, a chunk at a time.
    private func lines(of bytes: [UInt8]) throws -> [EventLogReader.Line] {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let writeEnd = ends[1]
        let writer = Thread {
            bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    let written = write(writeEnd, base + offset, buffer.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(writeEnd)
        }
        writer.start()
        var lines: [EventLogReader.Line] = []
        try EventLogReader.read(descriptor: ends[0], name: "pipe") { lines.append($0) }
        close(ends[0])
        return lines
    }

    @Test func aLineLongerThanTheCapIsOneBadLineAndTheRestIsRead() throws {
        let start = #"{"event":"start","v":1,"source":"x","width":4,"height":4,"fps":30,"config":{}}"#
        let end = #"{"event":"end","frame":0,"time":0,"reason":"eof","frames_processed":1,"frames_dropped":0}"#
        var bytes = Array((start + "\n").utf8)
        bytes += [UInt8](repeating: 0, count: EventLogReader.maxLineBytes * 3)
        bytes += Array(("\n\n" + end).utf8)  // an empty line, then a last line without its newline
        let lines = try lines(of: bytes)
        #expect(lines.count == 3)
        #expect(lines.dropFirst().first == .bad(lineNumber: 2))
        guard case let .record(last)? = lines.last else {
            Issue.record("the end line was not read")
            return
        }
        #expect(last.event == .end)
        var builder = EventLogReport.Builder()
        lines.forEach { builder.add($0) }
        #expect(builder.recordCount == 2)
        #expect(builder.report.totals.badLines == [2])
        #expect(builder.report.totals.hasEndLine)
    }

    @Test func streamedAndWholeReadsAgree() throws {
        let log = """
        {"event":"start","v":1,"source":"x","width":4,"height":4,"fps":30,"config":{}}
        garbage
        {"event":"add","frame":0,"time":0,"id":"a","kind":"barcode","symbology":"qr","payload":"P","confidence":1,"bounds":[[0,0],[1,0],[1,1],[0,1]]}
        {"event":"resize","frame":3,"time":0.1,"width":2,"height":2}
        {"event":"remove","frame":9,"time":0.3,"id":"a","kind":"barcode","symbology":"qr","payload":"P"}
        """
        var builder = EventLogReport.Builder()
        try lines(of: Array(log.utf8)).forEach { builder.add($0) }
        #expect(builder.report == EventLogReport(EventLogReader(data: Data(log.utf8))))
        #expect(builder.report.totals.eventsPerType["resize"] == 1)
        #expect(builder.report.totals.badLines == [2])
        #expect(builder.report.items.map(\.value) == ["P"])
    }

    @Test func resizeLineSaysTheNewSize() throws {
        let line = EventLog.resizeLine(frameIndex: 30, time: 1, width: 640, height: 360)
        #expect(line == #"{"event":"resize","frame":30,"time":1,"width":640,"height":360}"#)
        #expect(EventLogReader(data: Data(line.utf8)).records.first?.width == 640)
    }
}
