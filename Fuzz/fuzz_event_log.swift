// libFuzzer target: any bytes as an event log, through EventLogReader(data:) and EventLogReport, and every
// derived value `livescan report` prints. Compiled by scripts/fuzz.sh into one module with the LiveScanCore
// sources (so internal API is in reach), never by SwiftPM.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventLog(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let reader = EventLogReader(data: data)

    // Every non-blank line is either a record or a bad line, never both, never lost.
    let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    let blank = lines.filter { line in line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") } }
    precondition(reader.records.count + reader.badLines.count == lines.count - blank.count,
                 "lines lost or counted twice")
    precondition(reader.badLines == reader.badLines.sorted() && Set(reader.badLines).count == reader.badLines.count)

    let report = EventLogReport(reader)
    precondition(report.totals.badLines == reader.badLines)
    _ = report.isComplete
    _ = report.itemsInViewWhenCut
    _ = report.totals.frameCount
    _ = report.totals.eventsPerType.values.reduce(0, +)
    for item in report.items {
        _ = item.dwellTime
        _ = item.label
        precondition(item.distinctValues >= 0 && item.updates >= 0)
    }
    return 0
}
