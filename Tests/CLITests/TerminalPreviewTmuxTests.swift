import Foundation
import Testing
import LiveScanScenes

/// A detached tmux session (tmux from `make setup`) of a known size running one command: a real terminal emulator
/// whose screen, colours included, a test reads back. A server of its own, its socket in the test's folder (`-S`:
/// nothing is left in /tmp/tmux-UID), no configuration (`-f /dev/null`), UTF-8 whatever the locale (`-u`); stopped
/// with everything in it.
final class TmuxSession {
    static let executable = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    private let socket: String

    /// Starts `command` in a `width` x `height` session, in `directory`, which holds the server's socket.
    init(_ command: [String], width: Int, height: Int, directory: URL) throws {
        socket = directory.appendingPathComponent("tmux-\(UUID().uuidString.prefix(8)).sock").path
        let line = command.map(Shell.quote).joined(separator: " ")
        guard let executable = Self.executable else { throw CocoaError(.fileNoSuchFile) }
        // The server this client starts, and the command in it, keep every descriptor the client was given. Given
        // pipes (`Shell.run`), reading them to their end waited for the command to end, and so did `waitUntilExit`
        // even with none (Foundation's `Process` passes a descriptor of its own). Python closes them all before tmux
        // starts.
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        client.arguments = ["-c", "import os, sys; os.closerange(3, 1 << 16); os.execv(sys.argv[1], sys.argv[1:])",
                            executable, "-u", "-f", "/dev/null", "-S", socket, "new-session", "-d", "-x", "\(width)",
                            "-y", "\(height)", "-c", directory.path, line]
        client.standardOutput = FileHandle.nullDevice
        client.standardError = FileHandle.nullDevice
        try client.run()
        client.waitUntilExit()
        guard client.terminationStatus == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "tmux new-session failed"])
        }
    }

    /// The screen as shown now, with its colours as escape sequences (`capture-pane -e`); empty once the command
    /// has ended.
    func screen() -> String {
        (try? tmux(["capture-pane", "-p", "-e"]).standardOutput) ?? ""
    }

    /// Polls the screen until `done` says it is what was waited for, or `seconds` pass; the last screen seen.
    func waitForScreen(seconds: Double, until done: (String) -> Bool) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var shown = screen()
        while !done(shown) && Date() < deadline {
            usleep(200_000)
            shown = screen()
        }
        return shown
    }

    /// A command for the running server (one that starts none).
    private func tmux(_ arguments: [String]) throws -> CommandResult {
        guard let executable = Self.executable else { throw CocoaError(.fileNoSuchFile) }
        return try Shell.run("exec \"$0\" \"$@\"", arguments: [executable, "-u", "-f", "/dev/null", "-S", socket]
            + arguments)
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }
}

/// `--preview` on a real terminal: the picture in half blocks at the top, the codes outlined in green, the listing
/// under it; 24-bit or 256 colours as `COLORTERM` says; off, with the footer saying so, under `NO_COLOR`.
@Suite(.serialized) struct TerminalPreviewTmuxTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    static let greenTrueColor = ["38;2;40;200;80m", "48;2;40;200;80m"]
    static let green256 = ["38;5;41m", "48;5;41m"]

    /// What `screen` says, its colours (CSI ... m, as `capture-pane -e` gives them) left out.
    static func text(of screen: String) -> String {
        screen.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    /// Two QR codes on paper, 5 s at 30 fps, as `preview.mp4` in `folder`: played with `--realtime`, the scan lasts
    /// long enough to look at. Its name, relative to `folder`, where the scan runs (the listing's title names it as
    /// given).
    static func video(in folder: URL) throws -> String {
        let scene = Scene(
            name: "preview", width: 640, height: 360, fps: 30, frameCount: 150, background: .paper,
            items: [.barcode("qr-1", .qr, "https://livescan.example/preview", moduleSize: 4,
                             at: ScenePoint(x: 170, y: 180)),
                    .barcode("qr-2", .qr, "SHELF-B-0042", moduleSize: 4, at: ScenePoint(x: 470, y: 180))],
            noiseSigma: 2, seed: 5)
        try SceneRenderer(scene: scene).writeVideo(to: folder.appendingPathComponent("preview.mp4").path)
        return "preview.mp4"
    }

    func scan(_ environment: [String], video: String) throws -> TmuxSession {
        let livescan = try #require(Livescan.executable).path
        return try TmuxSession(["/usr/bin/env", "-u", "NO_COLOR", "-u", "COLORTERM"] + environment
            + [livescan, "scan", "--realtime", "--preview", "--types", "qr", video], width: 120, height: 50,
                                  directory: folder)
    }

    @Test(.enabled(if: TmuxSession.executable != nil))
    func thePictureIsDrawnWithTheCodesOutlinedInGreen() throws {
        let video = try Self.video(in: folder)
        for (colorTerm, green) in [("truecolor", Self.greenTrueColor), (nil, Self.green256)] {
            let session = try scan(colorTerm.map { ["COLORTERM=\($0)"] } ?? [], video: video)
            // 640x360 on 120x50: the picture is 120 columns, 34 rows (68 pixels), the listing's 16 lines under it.
            // Waited for whole: a screen captured while a picture is being written has its lower rows still blank.
            func showsPicture(_ shown: String) -> Bool {
                shown.components(separatedBy: "\n").prefix(34).allSatisfy { row in
                    row.components(separatedBy: "▀").count > 60
                }
            }
            let screen = session.waitForScreen(seconds: 30) { shown in
                green.contains { shown.contains($0) } && shown.contains("SHELF-B-0042") && showsPicture(shown)
            }
            let mode = colorTerm ?? "256 colours"
            let rows = screen.components(separatedBy: "\n")
            #expect(showsPicture(screen), "\(mode): no half-block picture at the top:\n\(screen)")
            #expect(green.contains { screen.contains($0) }, "\(mode): no green outline:\n\(screen)")
            #expect(rows.count > 34 && Self.text(of: rows[34]).hasPrefix("LiveScan  preview.mp4  640x360"),
                    "\(mode): the listing is not under the picture:\n\(screen)")
            if colorTerm == nil {
                #expect(!screen.contains("38;2;"), "24-bit colours without COLORTERM")
            }
        }
    }

    @Test(.enabled(if: TmuxSession.executable != nil))
    func noColorTurnsThePreviewOffAndSaysSo() throws {
        let session = try scan(["NO_COLOR=1", "COLORTERM=truecolor"], video: try Self.video(in: folder))
        let screen = session.waitForScreen(seconds: 30) { $0.contains("SHELF-B-0042") }
        #expect(screen.contains("preview off: NO_COLOR"), "\(screen)")
        #expect(Self.text(of: screen).hasPrefix("LiveScan  preview.mp4"), "\(screen)")
        #expect(!screen.contains("▀"), "a picture was drawn under NO_COLOR:\n\(screen)")
        #expect(!(Self.greenTrueColor + Self.green256).contains { screen.contains($0) })
    }
}
