import Foundation

/// What an HTTP request got back.
struct HTTPReply {
    let status: Int
    /// Header names lowercased.
    let headers: [String: String]
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A plain HTTP/1.0 client over a socket, for the live view's tests: any method and Host header (which URLSession
/// would not send as given), and a body read as it comes (an event stream), with nothing to install.
enum HTTPProbe {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends `method path` to 127.0.0.1:`port` and reads the answer until the server closes, `enough` says it has
    /// what it wants (given the body so far), or `timeout` seconds pass.
    static func request(port: Int, _ path: String, method: String = "GET", headers: [String: String] = [:],
                        timeout: Double = 10, enough: ((Data) -> Bool)? = nil) throws -> HTTPReply {
        let socket = try connect(port: port, timeout: timeout)
        defer { close(socket) }
        var lines = ["\(method) \(path) HTTP/1.0"]
        if headers["Host"] == nil {
            lines.append("Host: 127.0.0.1:\(port)")
        }
        lines += headers.map { "\($0.key): \($0.value)" }
        let request = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        guard send(socket, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
            throw Failure(description: "could not send to port \(port)")
        }
        var received = Data()
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 {
                break  // closed, or no byte within the socket's timeout
            }
            received.append(contentsOf: buffer[0..<count])
            if let enough, let split = received.range(of: Data("\r\n\r\n".utf8)),
               enough(received[split.upperBound...]) {
                break
            }
        }
        return try parse(received)
    }

    private static func connect(port: Int, timeout: Double) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "no socket") }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw Failure(description: "nothing listens on port \(port)")
        }
        return socket
    }

    private static func parse(_ received: Data) throws -> HTTPReply {
        guard let split = received.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "no HTTP answer: \(String(decoding: received.prefix(200), as: UTF8.self))")
        }
        let head = String(decoding: received[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = head.first?.split(separator: " ") ?? []
        guard statusWords.count >= 2, let status = Int(statusWords[1]) else {
            throw Failure(description: "bad status line: \(head.first ?? "")")
        }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                    .trimmingCharacters(in: .whitespaces)
            }
        }
        return HTTPReply(status: status, headers: headers, body: Data(received[split.upperBound...]))
    }
}
