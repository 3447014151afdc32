import Foundation

/// The controlling terminal for the full-screen listing: raw keyboard input, the alternate screen and
/// its restoration. `restore()` is idempotent and also registered with atexit, so the terminal comes
/// back on every way out, Ctrl-C included (SIGINT stops the scan, which restores before exiting).
final class Terminal: @unchecked Sendable {
    private var savedAttributes = termios()
    private var rawMode = false
    private var active = false
    private let lock = NSLock()
    nonisolated(unsafe) static var current: Terminal?

    /// The size in columns and rows; 80x24 when it cannot be asked.
    static var size: (width: Int, height: Int) {
        var window = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 {
            return (Int(window.ws_col), Int(window.ws_row))
        }
        return (80, 24)
    }

    static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether standard output is a terminal that can show the full-screen listing: `TERM=dumb` cannot move
    /// its cursor, and gets lines.
    static var canShowListing: Bool {
        isInteractive && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// Enters the alternate screen, hides the cursor, and reads keys unbuffered when stdin is a terminal.
    func enter() {
        lock.withLock {
            guard !active else { return }
            active = true
            if isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &savedAttributes) == 0 {
                var raw = savedAttributes
                // No line buffering and no echo; ISIG stays on so Ctrl-C still raises SIGINT.
                raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
                tcsetattr(STDIN_FILENO, TCSANOW, &raw)
                rawMode = true
            }
            write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
        }
        if Terminal.current !== self {
            Terminal.current = self
            atexit { Terminal.current?.restore() }
        }
    }

    /// Leaves the alternate screen, shows the cursor and gives the keyboard back.
    func restore() {
        lock.withLock {
            guard active else { return }
            active = false
            write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
            if rawMode {
                tcsetattr(STDIN_FILENO, TCSANOW, &savedAttributes)
                rawMode = false
            }
        }
    }

    /// Writes straight to the terminal (stdout), unbuffered.
    func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written <= 0 {
                if written < 0 && errno == EINTR { continue }
                return
            }
            offset += written
        }
    }

    /// Keys the listing understands.
    enum Key: Equatable {
        case up, down, enter, character(Character)
    }

    /// Waits up to `timeout` seconds for a key; nil when none came.
    func readKey(timeout: Double) -> Key? {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 8)
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return Terminal.parseKey(Array(buffer.prefix(count)))
    }

    static func parseKey(_ bytes: [UInt8]) -> Key? {
        switch bytes {
        case [0x1B, 0x5B, 0x41], [0x1B, 0x4F, 0x41]: return .up
        case [0x1B, 0x5B, 0x42], [0x1B, 0x4F, 0x42]: return .down
        case [0x0D], [0x0A]: return .enter
        default:
            guard bytes.count == 1, bytes[0] >= 0x20, bytes[0] < 0x7F else { return nil }
            return .character(Character(UnicodeScalar(bytes[0])))
        }
    }
}
