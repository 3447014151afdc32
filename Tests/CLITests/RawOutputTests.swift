import Foundation
import Testing
import LiveScanScenes

/// `--raw` is zbarimg's: when standard output is not a terminal, the exact payload, one a line (a vCard's
/// newlines as newlines, a Windows path's backslashes single); on a terminal it is escaped as all output is,
/// since a payload may hold terminal escapes. It printed `\n` and `\\` everywhere, and `--changes` ignored it.
@Suite struct RawOutputTests {
    private let scratch: ScratchFolder
    static let vCard = "BEGIN:VCARD\nVERSION:3.0\nFN:Ann Example\nEND:VCARD"
    static let windowsPath = #"C:\Users\ann\label.txt"#

    init() throws {
        scratch = try ScratchFolder()
    }

    private func stills() throws -> [String] {
        [try scratch.qrStill("vcard.png", payload: Self.vCard),
         try scratch.qrStill("path.png", payload: Self.windowsPath)]
    }

    @Test func rawWritesTheExactPayloadsWhenOutputIsNotATerminal() throws {
        let result = try Livescan.run(["scan", "--raw", "--types", "qr"] + (try stills()))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == Self.vCard + "\n" + Self.windowsPath + "\n")
    }

    @Test func rawChangesWriteTheExactPayloads() throws {
        let result = try Livescan.run(["scan", "--raw", "--changes", "--types", "qr"] + (try stills()))
        #expect(result.status == 0, "\(result.standardError)")
        let added = result.standardOutput.matches(of: #/\+ [0-9a-f]{8} /#).count
        #expect(added == 2, "\(result.standardOutput)")
        // The payload itself, after the mark and id, without the kind and without escapes.
        #expect(result.standardOutput.contains(" " + Self.vCard + "\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains(" " + Self.windowsPath + "\n"), "\(result.standardOutput)")
    }

    @Test func rawIsStillEscapedOnATerminal() throws {
        let screen = try Shell.runInTerminal([try #require(Livescan.executable).path, "scan", "--raw", "--types", "qr"]
                                             + (try stills()))
        let lines = screen.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map(String.init)
        #expect(lines.contains(#"BEGIN:VCARD\nVERSION:3.0\nFN:Ann Example\nEND:VCARD"#), "\(lines)")
        #expect(lines.contains(#"C:\\Users\\ann\\label.txt"#), "\(lines)")
    }
}
