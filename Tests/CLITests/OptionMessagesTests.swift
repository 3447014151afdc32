import Foundation
import Testing
import LiveScanScenes

/// What the command says about its options: `--help` agrees with the code, and a bad value is named as it was
/// typed, in one line that does not send the user after a package that does not exist.
@Suite struct OptionMessagesTests {
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
    }

    /// The start line's `config.types` for `arguments`.
    private func loggedTypes(_ arguments: [String]) throws -> [String] {
        let image = try scratch.qrStill("types.png")
        let events = scratch.path("types-\(UUID()).jsonl")
        let result = try Livescan.run(["scan", "--events", events] + arguments + [image])
        #expect(result.status == 0, "\(result.standardError)")
        let start = try #require(try eventLog(at: URL(fileURLWithPath: events)).first)
        return (start["config"] as? [String: Any])?["types"] as? [String] ?? []
    }

    @Test func helpStatesTheTypesDefaultTheScanUses() throws {
        #expect(try loggedTypes([]) == ["all-barcodes", "text"])
        let help = try Livescan.run(["scan", "--help"]).standardOutput
        let typesLine = try #require(help.split(separator: "\n").first { $0.hasPrefix("  --types") })
        #expect(typesLine.contains("(default: barcodes,text)"), "\(typesLine)")
    }

    @Test func aTypeNamedTwiceIsLoggedOnce() throws {
        #expect(try loggedTypes(["--types", "qr,qr,QR"]) == ["qr"])
        #expect(try loggedTypes(["--types", "text,qr,text"]) == ["qr", "text"])
    }

    @Test func everyHelpLineFitsEightyColumns() throws {
        for arguments in [["--help"], ["scan", "--help"]] {
            let help = try Livescan.run(arguments)
            #expect(help.status == 0)
            let long = help.outputLines.filter { $0.count > 80 }
            #expect(long.isEmpty, "\(long)")
        }
    }

    @Test func aTrackerSettingIsNamedAsTyped() throws {
        let result = try Livescan.run(["scan", "--tracker", "grace_period=-1", "x.png"])
        #expect(result.status == 2)
        #expect(result.errorLines.first == "Error: --tracker grace_period=-1: grace_period must be 0...86400 seconds")
    }

    /// `english` and `xx-YY` are no language Tesseract has data for and no Debian package installs: there is no
    /// `tesseract-ocr-english` to suggest. A language Debian packages is still named with its package.
    @Test func anUnknownLanguageIsSaidToBeUnknown() throws {
        let image = try scratch.qrStill("text.png")
        for language in ["english", "xx-YY"] {
            let result = try Livescan.run(["scan", "--languages", language, image])
            #expect(result.status == 2)
            #expect(result.errorLines.count == 1, "\(result.errorLines)")
            let line = result.errorLines.first ?? ""
            #expect(line.contains("unknown language '\(language)'") && !line.contains("apt install"), "\(line)")
        }
        let traditional = try Livescan.run(["scan", "--languages", "zh-Hant", image])
        #expect(traditional.errorLines.first?.contains("apt install tesseract-ocr-chi-tra") == true,
                "\(traditional.errorLines)")
    }
}
