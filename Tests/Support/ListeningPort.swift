import Foundation

/// Waits until something listens on TCP `port` of 127.0.0.1, at most `timeout` seconds; whether it does. Read from
/// /proc/net/tcp (state 0A), so that the one connection a server such as `ffmpeg ... ?listen=1` accepts is not
/// spent on asking. A fixed wait before connecting was too short on a loaded machine (CI: "Connection refused").
public func waitUntilListening(port: Int, timeout: TimeInterval = 10) -> Bool {
    let needle = String(format: ":%04X 00000000:0000 0A", port)
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8))?.contains(needle) ?? false {
            return true
        }
        if Date() >= deadline {
            return false
        }
        usleep(10_000)
    }
}
