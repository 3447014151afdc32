import Foundation

// The payloads that are URIs, or close relatives of them: web addresses, e-mail, SMS and geo locations.

/// A web address: `http://…`, `https://…` (any case), or a scheme-less `www.…`.
public struct URLContent: Sendable, Equatable {
    /// The address as the payload has it.
    public let text: String
    /// The address to open: `text`, with `https://` put in front of a scheme-less `www.` address.
    public let url: String
    /// The host, lower-cased, without user information or port.
    public let host: String

    /// Creates a web address from its parts; `parse` is the usual way in.
    public init(text: String, url: String, host: String) {
        self.text = text
        self.url = url
        self.host = host
    }

    static func parse(_ text: String) -> URLContent? {
        guard !PayloadText.hasWhitespaceOrControl(text) else { return nil }
        let url: String
        let rest: String
        if let afterScheme = PayloadText.afterPrefix(text, ["http://", "https://"]) {
            url = text
            rest = afterScheme
        } else if PayloadText.hasPrefix(text, ignoringCase: "www.") {
            url = "https://" + text
            rest = text
        } else {
            return nil
        }
        let authority = rest.prefix { !"/?#".contains($0) }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let host: Substring
        if hostAndPort.hasPrefix("[") {
            guard let close = hostAndPort.firstIndex(of: "]") else { return nil }
            host = hostAndPort[...close]
        } else {
            host = hostAndPort.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        let hostAllowed: (Character) -> Bool = { $0.isLetter || $0.isNumber || "-._[]:".contains($0) || !$0.isASCII }
        guard !host.isEmpty, host.allSatisfy(hostAllowed) else { return nil }
        // `www.` alone, or `www.x` without a dot after it, reads as text more often than as an address.
        if !PayloadText.hasPrefix(text, ignoringCase: "http"), host.dropFirst(4).split(separator: ".").count < 2 {
            return nil
        }
        return URLContent(text: text, url: url, host: host.lowercased())
    }

    var summaryText: String { "URL: " + text }

    func addLogFields(to fields: inout LogFieldList) {
        fields.add("url", url)
        fields.add("host", host)
    }
}

/// An e-mail to write: from a `mailto:` URI (RFC 6068), a DoCoMo `MATMSG:TO:…;SUB:…;BODY:…;;`, or a bare
/// address.
public struct EmailContent: Sendable, Equatable {
    /// Recipients; at least one.
    public let to: [String]
    /// Copy recipients (`mailto:` only).
    public let cc: [String]
    /// Blind-copy recipients (`mailto:` only).
    public let bcc: [String]
    /// The subject, if the payload gives one.
    public let subject: String?
    /// The message text, if the payload gives one.
    public let body: String?

    /// Creates an e-mail from its parts; `parse` is the usual way in.
    public init(to: [String], cc: [String] = [], bcc: [String] = [], subject: String? = nil, body: String? = nil) {
        self.to = to
        self.cc = cc
        self.bcc = bcc
        self.subject = subject
        self.body = body
    }

    static func parse(_ text: String) -> EmailContent? {
        if let rest = PayloadText.afterPrefix(text, ["mailto:"]) {
            return parseMailto(rest)
        }
        if let rest = PayloadText.afterPrefix(text, ["MATMSG:"]) {
            let fields = SemicolonFields.parse(rest).fields
            let to = fields.filter { $0.key == "TO" }.map(\.value).filter(PayloadText.isPlausibleEmailAddress)
            guard !to.isEmpty else { return nil }
            return EmailContent(to: to, subject: PayloadText.nonEmpty(fields.first { $0.key == "SUB" }?.value),
                                body: PayloadText.nonEmpty(fields.first { $0.key == "BODY" }?.value))
        }
        return PayloadText.isPlausibleEmailAddress(text) ? EmailContent(to: [text]) : nil
    }

    private static func parseMailto(_ rest: String) -> EmailContent? {
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var to = addresses(parts.first ?? "")
        var cc: [String] = []
        var bcc: [String] = []
        var subject: String?
        var body: String?
        if parts.count > 1 {
            for item in PayloadText.queryItems(parts[1]) {
                switch item.name {
                case "to": to += addresses(Substring(item.value))
                case "cc": cc += addresses(Substring(item.value))
                case "bcc": bcc += addresses(Substring(item.value))
                case "subject": subject = subject ?? item.value
                case "body": body = body ?? item.value
                default: break
                }
            }
        }
        // A list with a broken address is still an e-mail to the others; with none left it is not an e-mail.
        guard !to.isEmpty else { return nil }
        return EmailContent(to: to, cc: cc, bcc: bcc, subject: PayloadText.nonEmpty(subject),
                            body: PayloadText.nonEmpty(body))
    }

    private static func addresses(_ list: Substring) -> [String] {
        list.split(separator: ",")
            .map { PayloadText.percentDecoded($0).trimmingCharacters(in: .whitespaces) }
            .filter(PayloadText.isPlausibleEmailAddress)
    }

    var summaryText: String {
        var line = "E-mail: " + to.joined(separator: ", ")
        if let subject {
            line += " \"" + subject + "\""
        }
        return line
    }

    func addLogFields(to fields: inout LogFieldList) {
        fields.add("to", to)
        fields.add("cc", cc)
        fields.add("bcc", bcc)
        fields.add("subject", subject)
        fields.add("body", body)
    }
}

/// A text message to send: `sms:+15550100,+15550101?body=Hi` (RFC 5724) or `SMSTO:+15550100:Hi`
/// (`MMSTO:` alike).
public struct SMSContent: Sendable, Equatable {
    /// Recipients' numbers, as written; at least one.
    public let numbers: [String]
    /// The message text, if the payload gives one.
    public let body: String?

    /// Creates a text message from its parts; `parse` is the usual way in.
    public init(numbers: [String], body: String? = nil) {
        self.numbers = numbers
        self.body = body
    }

    static func parse(_ text: String) -> SMSContent? {
        if let rest = PayloadText.afterPrefix(text, ["SMSTO:", "MMSTO:"]) {
            let parts = rest.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let number = String(parts.first ?? "").trimmingCharacters(in: .whitespaces)
            guard PayloadText.isPlausiblePhoneNumber(number) else { return nil }
            return SMSContent(numbers: [number], body: parts.count > 1 ? PayloadText.nonEmpty(String(parts[1])) : nil)
        }
        guard let rest = PayloadText.afterPrefix(text, ["sms:"]) else { return nil }
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let numbers = (parts.first ?? "").split(separator: ",").map { PayloadText.percentDecoded($0) }
        guard !numbers.isEmpty, numbers.allSatisfy(PayloadText.isPlausiblePhoneNumber) else { return nil }
        let body = parts.count > 1 ? PayloadText.queryItems(parts[1]).first { $0.name == "body" }?.value : nil
        return SMSContent(numbers: numbers, body: PayloadText.nonEmpty(body))
    }

    var summaryText: String {
        var line = "SMS to " + numbers.joined(separator: ", ")
        if let body {
            line += ": \"" + body + "\""
        }
        return line
    }

    func addLogFields(to fields: inout LogFieldList) {
        fields.add("numbers", numbers)
        fields.add("body", body)
    }
}

/// A place: `geo:48.2082,16.3738`, `geo:48.2082,16.3738,180` or `geo:0,0?q=Vienna+Opera` (RFC 5870, with
/// the `q` query Android and Google Maps use).
public struct GeoContent: Sendable, Equatable {
    /// Degrees north, -90...90.
    public let latitude: Double
    /// Degrees east, -180...180.
    public let longitude: Double
    /// Metres, if given.
    public let altitude: Double?
    /// The `q=` search text, `+` read as a space, if given.
    public let query: String?

    /// Creates a place from its parts; `parse` is the usual way in.
    public init(latitude: Double, longitude: Double, altitude: Double? = nil, query: String? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.query = query
    }

    static func parse(_ text: String) -> GeoContent? {
        guard let rest = PayloadText.afterPrefix(text, ["geo:"]) else { return nil }
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        // Parameters such as `;u=35` or `;crs=wgs84` follow the coordinates; they do not change what to show.
        let path = (parts.first ?? "").split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first
        let coordinates = (path ?? "").split(separator: ",", omittingEmptySubsequences: false).map(decimal)
        guard coordinates.count == 2 || coordinates.count == 3,
              let latitude = coordinates[0], let longitude = coordinates[1],
              abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        var altitude: Double?
        if coordinates.count == 3 {
            guard let value = coordinates[2] else { return nil }
            altitude = value
        }
        var query: String?
        if parts.count > 1 {
            // Form encoding: `+` is a space, so it is replaced before `%2B` is decoded into a real plus.
            let items = parts[1].replacingOccurrences(of: "+", with: " ")
            query = PayloadText.nonEmpty(PayloadText.queryItems(Substring(items)).first { $0.name == "q" }?.value)
        }
        return GeoContent(latitude: latitude, longitude: longitude, altitude: altitude, query: query)
    }

    /// A plain decimal number; `Double(_:)` alone would also take `nan`, `inf` and hexadecimal.
    private static func decimal(_ text: Substring) -> Double? {
        let allowed = Set("0123456789.+-")
        guard !text.isEmpty, text.count <= 32, text.allSatisfy({ allowed.contains($0) }) else { return nil }
        return Double(text).flatMap { $0.isFinite ? $0 : nil }
    }

    var summaryText: String {
        var line = "Location: \(latitude), \(longitude)"
        if let altitude {
            line += ", \(altitude) m"
        }
        if let query {
            line += " (" + query + ")"
        }
        return line
    }

    func addLogFields(to fields: inout LogFieldList) {
        fields.add("latitude", number: latitude)
        fields.add("longitude", number: longitude)
        fields.add("altitude", number: altitude)
        fields.add("query", query)
    }
}
