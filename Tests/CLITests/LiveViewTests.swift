import Foundation
import LiveScan
import LiveScanScenes
import Testing

/// The live-view preset's codes: a URL, and markup the page must show as text.
let hostilePayload = ScenePreset.markupPayload

/// `livescan scan SOURCE --serve ...` running in the background, its address read from standard error.
final class ServingScan {
    let process = Process()
    let errors: URL
    private(set) var port = 0

    init(_ arguments: [String], folder: URL) throws {
        guard let executable = Livescan.executable else { throw CocoaError(.fileNoSuchFile) }
        errors = folder.appendingPathComponent("stderr-\(UUID().uuidString).txt")
        FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.executableURL = executable
        process.arguments = ["scan"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && process.isRunning {
            let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"http://127\.0\.0\.1:(\d+)/"#, options: .regularExpression) {
                port = Int(text[range].split(separator: ":").last?.dropLast() ?? "") ?? 0
                return
            }
            usleep(20_000)
        }
    }

    /// Waits for the scan to end (SIGKILL after `timeout` seconds: a hang is a bug); its exit status.
    @discardableResult
    func wait(timeout: Double = 60) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            usleep(20_000)
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    var standardError: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// `--serve`: the page, the items, the picture and the log served while a scan runs; a viewer's choice logged; what
/// is not served refused; the token; a port in use.
@Suite(.serialized) struct LiveViewTests {
    let folder: URL
    private let scratch: ScratchFolder
    let video: URL

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
        video = folder.appendingPathComponent("view.mp4")
        var clip = ScenePreset.liveView.scene
        clip.frameCount = 150
        try SceneRenderer(scene: clip).writeVideo(to: video.path)
    }

    /// The items in /items once both codes are in, or the last answer after `seconds`.
    func itemsInView(port: Int, seconds: Double = 20) throws -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(seconds)
        var items: [[String: Any]] = []
        while Date() < deadline {
            let reply = try HTTPProbe.request(port: port, "/items")
            if reply.status == 200, let document = try JSONSerialization.jsonObject(with: reply.body) as? [String: Any] {
                items = document["items"] as? [[String: Any]] ?? []
                if items.count == 2 {
                    break
                }
            }
            usleep(50_000)
        }
        return items
    }

    @Test func servesThePageTheItemsThePictureAndTheLogWhileItScans() throws {
        let events = folder.appendingPathComponent("view.jsonl")
        let scan = try ServingScan([video.path, "--realtime", "--types", "qr", "--serve", "0", "--events", events.path],
                                   folder: folder)
        #expect(scan.port > 0, "stderr: \(scan.standardError)")
        // Two viewers from the start: each must get every line of the log, to the end line, and then the stream
        // ends.
        let port = scan.port
        let streams = (0..<2).map { _ in
            Thread.detachNewThreadWithResult { try? HTTPProbe.request(port: port, "/events", timeout: 30) }
        }
        let page = try HTTPProbe.request(port: scan.port, "/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.text.contains("<title>LiveScan</title>"))
        #expect(page.headers["content-security-policy"]?.contains("default-src 'none'") == true)

        let items = try itemsInView(port: scan.port)
        #expect(Set(items.compactMap { $0["payload"] as? String }) == [ScenePreset.liveViewURL, hostilePayload])
        #expect(items.allSatisfy { ($0["bounds"] as? [[Double]])?.count == 4 })

        // The first request asks for a picture; a later one gets it, decoded as the scan's frame scaled to fit.
        var picture = try HTTPProbe.request(port: scan.port, "/frame.jpg")
        for _ in 0..<40 where picture.status != 200 {
            usleep(50_000)
            picture = try HTTPProbe.request(port: scan.port, "/frame.jpg")
        }
        #expect(picture.status == 200 && picture.headers["content-type"] == "image/jpeg")
        let image = try FrameImage(encoded: picture.body, name: "frame.jpg")
        #expect(image.width == 640 && image.height == 360)
        // Each request asks for the next picture, encoded on the view's thread as its time allows: on a loaded
        // machine that may take more than one request, so later pictures are asked for until one is newer.
        let first = Int(picture.headers["x-frame"] ?? "") ?? 0
        var later = first
        for _ in 0..<50 where later <= first {
            usleep(100_000)
            later = Int(try HTTPProbe.request(port: scan.port, "/frame.jpg").headers["x-frame"] ?? "") ?? 0
        }
        #expect(later > first)

        // A click's request: the library's tap, in the log after the frame it came in.
        let chosen = try #require(items.first { $0["payload"] as? String == hostilePayload }?["id"] as? String)
        #expect(try HTTPProbe.request(port: scan.port, "/tap?id=\(chosen)").status == 204)
        #expect(try HTTPProbe.request(port: scan.port, "/tap?id=\(UUID().uuidString)").status == 404)

        #expect(scan.wait() == 0, "stderr: \(scan.standardError)")
        let log = try String(contentsOf: events, encoding: .utf8).split(separator: "\n").map(String.init)
        let taps = log.filter { $0.contains(#""event":"tap""#) }
        #expect(taps.count == 1 && taps.first?.contains(chosen) == true)
        // Each stream carried the same lines as the file, in order, and ended with it.
        for stream in streams {
            let streamed = try #require(stream.result()??.text)
            let data = streamed.split(separator: "\n").filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
            #expect(data.count == log.count && data.last == log.last)
            #expect(data == log)
        }
    }

    @Test func refusesEverythingButTheViewsGets() throws {
        let scan = try ServingScan([video.path, "--realtime", "--types", "qr", "--serve", "0"], folder: folder)
        #expect(scan.port > 0, "stderr: \(scan.standardError)")
        #expect(try HTTPProbe.request(port: scan.port, "/", method: "POST").status == 405)
        #expect(try HTTPProbe.request(port: scan.port, "/items", method: "DELETE").status == 405)
        #expect(try HTTPProbe.request(port: scan.port, "/etc/passwd").status == 404)
        #expect(try HTTPProbe.request(port: scan.port, "/../items").status == 404)
        #expect(try HTTPProbe.request(port: scan.port, "/tap").status == 400)
        // A page elsewhere that points its own name at 127.0.0.1 (DNS rebinding) is not served.
        #expect(try HTTPProbe.request(port: scan.port, "/items", headers: ["Host": "attacker.example"]).status == 403)
        #expect(try HTTPProbe.request(port: scan.port, "/items", headers: ["Host": "localhost:\(scan.port)"]).status
            != 403)
        kill(scan.process.processIdentifier, SIGINT)
        #expect(scan.wait() == 130)
    }

    @Test func aTokenIsAskedForInEveryRequest() throws {
        let token = "k3y-for-the-view"
        let scan = try ServingScan([video.path, "--realtime", "--types", "qr", "--serve", "127.0.0.1:0",
                                    "--serve-token", token], folder: folder)
        #expect(scan.port > 0, "stderr: \(scan.standardError)")
        #expect(scan.standardError.contains("?token=\(token)"))
        #expect(try HTTPProbe.request(port: scan.port, "/").status == 401)
        #expect(try HTTPProbe.request(port: scan.port, "/items?token=wrong-token-here").status == 401)
        #expect(try HTTPProbe.request(port: scan.port, "/?token=\(token)").status == 200)
        #expect(try HTTPProbe.request(port: scan.port, "/events", headers: ["Authorization": "Bearer \(token)"],
                                      timeout: 5, enough: { $0.count > 0 }).status == 200)
        kill(scan.process.processIdentifier, SIGINT)
        #expect(scan.wait() == 130)
    }

    @Test func aPortInUseIsOneClearError() throws {
        let busy = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(busy) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(busy, $0, length) == 0 && listen(busy, 1) == 0 && getsockname(busy, $0, &length) == 0
            }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let result = try Livescan.run(["scan", video.path, "--serve", "\(port)"])
        #expect(result.status == 2)
        #expect(result.errorLines == ["Error: --serve: cannot listen on 127.0.0.1:\(port): Address already in use"])
    }

    @Test(arguments: [
        (["--serve", "0.0.0.0:8080"], "a host other than loopback needs --serve-token"),
        (["--serve", "70000"], "--serve takes [HOST:]PORT"),
        (["--serve", "::1:80"], "--serve takes [HOST:]PORT"),
        (["--serve-token", "abcdefghij"], "--serve-token goes with --serve"),
        (["--serve", "0", "--serve-token", "short"], "--serve-token needs 8 or more"),
    ])
    func badServeSettingsAreUsageErrors(arguments: [String], message: String) throws {
        let result = try Livescan.run(["scan", video.path] + arguments)
        #expect(result.status == 2)
        #expect(result.errorLines.first?.contains(message) == true, "stderr: \(result.standardError)")
    }
}

extension Thread {
    /// Runs `body` on a thread of its own; `result()` waits for what it returned.
    static func detachNewThreadWithResult<Value>(_ body: @escaping @Sendable () -> Value) -> ThreadResult<Value> {
        let result = ThreadResult<Value>()
        Thread.detachNewThread {
            result.value = body()
            result.done.signal()
        }
        return result
    }
}

final class ThreadResult<Value>: @unchecked Sendable {
    fileprivate var value: Value?
    fileprivate let done = DispatchSemaphore(value: 0)

    func result() -> Value? {
        done.wait()
        return value
    }
}
