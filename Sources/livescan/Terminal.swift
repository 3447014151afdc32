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
    /// Whether standard error is a terminal, where a person reads progress and closing lines.
    static var isStandardErrorInteractive: Bool { isatty(STDERR_FILENO) == 1 }

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
        case up, down, pageUp, pageDown, home, end, enter, character(Character)
    }

    /// Waits up to `timeout` seconds for keys; empty when none came. A held arrow key, fast typing or a paste
    /// arrive in one read, so every key of the read is returned, in order.
    func readKeys(timeout: Double) -> [Key] {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        guard count > 0 else { return [] }
        return Terminal.parseKeys(Array(buffer.prefix(count)))
    }

    /// The keys in `bytes`: arrows, Home and End (CSI or SS3 form, or CSI 1~ 7~ / 4~ 8~ as xterm, rxvt and the Linux
    /// console send them), Page Up and Down (CSI 5~ 6~), Enter, printable ASCII characters. Anything else (other
    /// escape sequences, control characters, bytes beyond ASCII) is passed over; an escape sequence is
    /// skipped whole, up to its final byte, so its parameters are never taken for typed characters.
    /// The key an escape sequence with these parameter bytes and this final byte is, if the listing knows it.
    private static func key(parameters: [UInt8], final: UInt8) -> Key? {
        switch (String(decoding: parameters, as: UTF8.self), final) {
        case ("", 0x41): .up
        case ("", 0x42): .down
        case ("", 0x48), ("1", 0x7E), ("7", 0x7E): .home
        case ("", 0x46), ("4", 0x7E), ("8", 0x7E): .end
        case ("5", 0x7E): .pageUp
        case ("6", 0x7E): .pageDown
        default: nil
        }
    }

    static func parseKeys(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x1B:
                guard index < bytes.count, bytes[index] == 0x5B || bytes[index] == 0x4F else { continue }
                let introducer = bytes[index]
                index += 1
                // CSI: parameter and intermediate bytes (0x20-0x3F), then one final byte (0x40-0x7E). SS3: one byte.
                var parameters: [UInt8] = []
                while introducer == 0x5B, index < bytes.count, (0x20...0x3F).contains(bytes[index]) {
                    parameters.append(bytes[index])
                    index += 1
                }
                guard index < bytes.count else { continue }
                let final = bytes[index]
                index += 1
                if let key = Self.key(parameters: parameters, final: final) {
                    keys.append(key)
                }
            case 0x0D, 0x0A:
                keys.append(.enter)
            case 0x20..<0x7F:
                keys.append(.character(Character(UnicodeScalar(byte))))
            default:
                continue
            }
        }
        return keys
    }
}
