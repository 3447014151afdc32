import Foundation

/// `--serve [HOST:]PORT` and `--serve-token TOKEN`, checked: where the live view listens and what it asks for.
struct ServeSettings: Equatable {
    /// A numeric address or a name, as given; `127.0.0.1` when only a port was.
    var host: String
    /// 0: any free port.
    var port: Int
    var token: String?

    static let defaultHost = "127.0.0.1"

    /// nil when `--serve` is not given (then `--serve-token` is an error).
    init?(address: String?, token: String?) throws {
        guard let address else {
            if token != nil {
                throw UsageError(message: "--serve-token goes with --serve [HOST:]PORT")
            }
            return nil
        }
        (host, port) = try Self.parse(address)
        if let token {
            // It travels in URLs (?token=) and headers: printable ASCII without what a URL would have to escape.
            let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
            guard token.count >= 8, token.unicodeScalars.allSatisfy(allowed.contains) else {
                throw UsageError(message: "--serve-token needs 8 or more letters, digits, '-', '.', '_' or '~'")
            }
        }
        self.token = token
        if token == nil && !isLoopback {
            throw UsageError(message: "--serve \(address): a host other than loopback needs --serve-token TOKEN "
                + "(anyone who can reach it would see the camera)")
        }
    }

    /// `PORT`, `HOST:PORT` or `[IPv6]:PORT`.
    static func parse(_ address: String) throws -> (host: String, port: Int) {
        let host: String, portText: Substring
        if address.hasPrefix("["), let close = address.firstIndex(of: "]") {
            host = String(address[address.index(after: address.startIndex)..<close])
            let rest = address[address.index(after: close)...]
            guard rest.hasPrefix(":") else { throw Self.badAddress(address) }
            portText = rest.dropFirst()
        } else if let colon = address.lastIndex(of: ":") {
            host = String(address[..<colon])
            portText = address[address.index(after: colon)...]
            guard !host.contains(":") else { throw Self.badAddress(address) }  // IPv6 goes in brackets
        } else {
            host = defaultHost
            portText = Substring(address)
        }
        guard !host.isEmpty, portText.allSatisfy(\.isASCII), let port = Int(portText), (0...65535).contains(port)
        else { throw Self.badAddress(address) }
        return (host, port)
    }

    private static func badAddress(_ address: String) -> UsageError {
        UsageError(message: "--serve takes [HOST:]PORT (8080, 0.0.0.0:8080, [::1]:8080; port 0...65535), "
            + "got '\(address)'")
    }

    /// Whether `host` is this machine's loopback (localhost, 127.0.0.0/8, ::1): reachable from here only.
    var isLoopback: Bool {
        if host.lowercased() == "localhost" || host == "::1" {
            return true
        }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The page's address, as printed for the user to open (the token in it, so that the page can ask with it).
    func url(port boundPort: Int) -> String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(boundPort)/" + (token.map { "?token=\($0)" } ?? "")
    }
}
