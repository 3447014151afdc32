import CLiveViewServer
import LiveScan
import Foundation

/// The live view's HTTP server (CLiveViewServer, over libmicrohttpd): a store the scan fills and viewers read, on
/// threads of their own. Every call copies what it is given and returns at once; none waits for a viewer.
final class LiveViewServer: @unchecked Sendable {
    private let server: OpaquePointer
    private let taps: Unmanaged<TapBox>
    private let lock = NSLock()
    private var stopped = false
    /// The port bound: the one asked for, or the one chosen for port 0.
    let port: Int

    /// Binds and starts serving `page`. Throws `UsageError` when the address cannot be had (a port in use, a host
    /// that is not this machine's), `ScanError.outputFailed` when the server cannot start.
    init(settings: ServeSettings, page: String, maxViewers: Int = 16, onTap: @escaping @Sendable (String) -> Bool)
        throws {
        let taps = Unmanaged.passRetained(TapBox(onTap))
        var started: OpaquePointer?
        var message = [CChar](repeating: 0, count: 256)
        let status = settings.host.withCString { host in
            page.withCString { pageText in
                withOptionalCString(settings.token) { token in
                    var options = LVS_Options(
                        host: host, port: Int32(settings.port), token: token,
                        host_is_loopback: settings.isLoopback ? 1 : 0, page: pageText, page_length: strlen(pageText),
                        on_tap: { context, id in
                            guard let context, let id else { return 0 }
                            return Unmanaged<TapBox>.fromOpaque(context).takeUnretainedValue().tap(String(cString: id))
                                ? 1 : 0
                        },
                        tap_context: taps.toOpaque(), max_viewers: Int32(maxViewers))
                    return LVS_Server_start(&options, &started, &message, message.count)
                }
            }
        }
        guard status == LVS_OK, let started else {
            taps.release()
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if status == LVS_ADDRESS_UNUSABLE {
                throw UsageError(message: "--serve: cannot listen on \(reason)")
            }
            throw ScanError.outputFailed(path: "--serve", reason: reason)
        }
        server = started
        self.taps = taps
        port = Int(LVS_Server_port(started))
    }

    deinit {
        stop()
        taps.release()
    }

    /// Waits up to `timeout` seconds for every viewer of /events to have the whole log (after `endLog`), then stops
    /// serving: open connections are closed. Later calls do nothing, and so does every other call from then on.
    func stop(drainingFor timeout: Double = 0) {
        let running = lock.withLock { !stopped }
        guard running else { return }
        _ = LVS_Server_drain(server, Int32(timeout * 1000))
        lock.withLock {
            if !stopped {
                stopped = true
                LVS_Server_stop(server)
            }
        }
    }

    /// One more line of the event log for /events.
    func addLogLine(_ line: String) {
        whileServing(with: line) { LVS_Server_add_log_line(server, $0, $1) }
    }

    /// What /items serves from now on.
    func setItems(_ json: String) {
        whileServing(with: json) { LVS_Server_set_items(server, $0, $1) }
    }

    /// What /frame.jpg serves from now on: frame `frame`'s picture.
    func setPicture(_ jpeg: Data, frame: Int) {
        whileServing {
            jpeg.withUnsafeBytes { bytes in
                _ = LVS_Server_set_picture(server, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count,
                                           Int64(frame))
            }
        }
    }

    /// Waits up to `timeout` seconds for a viewer to ask for a newer picture. Not to be called once `stop` may
    /// have been (it does not take the lock, which would keep the scan's calls waiting meanwhile).
    func waitForPictureRequest(timeout: Double) -> Bool {
        LVS_Server_wait_for_picture_request(server, Int32(timeout * 1000)) != 0
    }

    /// The log is whole: each /events stream ends when its viewer has every line.
    func endLog() {
        whileServing { LVS_Server_end_log(server) }
    }

    /// Runs `body` unless the server was stopped, under the lock `stop` takes: the handle is never used freed.
    private func whileServing(_ body: () -> Void) {
        lock.withLock {
            if !stopped {
                body()
            }
        }
    }

    /// `whileServing`, handing `text`'s UTF-8 bytes and their count to a call that copies them.
    private func whileServing(with text: String, _ call: (UnsafePointer<CChar>?, Int) -> LVS_Status) {
        var text = text
        whileServing {
            text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { _ = call($0.baseAddress, $0.count) }
            }
        }
    }
}

/// The tap handler, kept alive for the C server's callback.
final class TapBox: @unchecked Sendable {
    let tap: @Sendable (String) -> Bool

    init(_ tap: @escaping @Sendable (String) -> Bool) {
        self.tap = tap
    }
}

private func withOptionalCString<Result>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let text else { return body(nil) }
    return text.withCString(body)
}
