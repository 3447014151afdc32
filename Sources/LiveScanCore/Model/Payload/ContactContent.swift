import Foundation

/// A contact card: a vCard (2.1, 3.0 or 4.0: `BEGIN:VCARD` … `END:VCARD`) or a DoCoMo `MECARD:N:Doe,Jane;…;;`.
public struct ContactContent: Sendable, Equatable {
    /// Which card format the payload used.
    public enum Format: String, Sendable, Equatable {
        /// `BEGIN:VCARD`; vCard 2.1 quoted-printable values are kept as encoded.
        case vCard = "vcard"
        /// `MECARD:`.
        case mecard
    }

    /// The format the payload used.
    public let format: Format
    /// The display name: vCard `FN`, else `N` put in reading order; MECARD `N` (`Doe,Jane` reads `Jane Doe`).
    public let name: String?
    /// The organisation (`ORG`), its units joined with `, `.
    public let organization: String?
    /// The job title (`TITLE`).
    public let title: String?
    /// Telephone numbers as written (`TEL`), in payload order.
    public let phoneNumbers: [String]
    /// E-mail addresses (`EMAIL`), in payload order.
    public let emails: [String]
    /// Postal addresses (`ADR`), their non-empty parts joined with `, `.
    public let addresses: [String]
    /// Web addresses (`URL`).
    public let urls: [String]
    /// The note (`NOTE`).
    public let note: String?
    /// The birthday as written (`BDAY`), e.g. `1985-04-12` or `19850412`.
    public let birthday: String?
    /// False when the card was cut off: a vCard without `END:VCARD`, or a MECARD ending inside a field. The last
    /// field of a cut-off card may itself be incomplete.
    public let isComplete: Bool

    /// Creates a card from its parts; `parse` is the usual way in.
    public init(format: Format, name: String?, organization: String? = nil, title: String? = nil,
                phoneNumbers: [String] = [], emails: [String] = [], addresses: [String] = [], urls: [String] = [],
                note: String? = nil, birthday: String? = nil, isComplete: Bool = true) {
        self.format = format
        self.name = name
        self.organization = organization
        self.title = title
        self.phoneNumbers = phoneNumbers
        self.emails = emails
        self.addresses = addresses
        self.urls = urls
        self.note = note
        self.birthday = birthday
        self.isComplete = isComplete
    }

    /// A card with at least one field; nil for anything else, including a card with only `VERSION`.
    static func parse(_ text: String) -> ContactContent? {
        var card: ContactContent?
        if let body = PayloadText.afterPrefix(text, ["MECARD:"]) {
            card = parseMECARD(body)
        } else if PayloadText.hasPrefix(text, ignoringCase: "BEGIN:VCARD") {
            card = parseVCard(text)
        }
        guard let card, card.hasFields else { return nil }
        return card
    }

    private var hasFields: Bool {
        name != nil || organization != nil || title != nil || !phoneNumbers.isEmpty || !emails.isEmpty
            || !addresses.isEmpty || !urls.isEmpty || note != nil || birthday != nil
    }

    private static func parseVCard(_ text: String) -> ContactContent? {
        let lines = ContentLines.parse(text)
        guard let begin = lines.first, begin.name == "BEGIN", begin.text.uppercased() == "VCARD" else { return nil }
        var fullName: String?
        var structuredName: String?
        var organization: String?
        var title: String?
        var phones: [String] = []
        var emails: [String] = []
        var addresses: [String] = []
        var urls: [String] = []
        var note: String?
        var birthday: String?
        var isComplete = false
        for line in lines.dropFirst() {
            if line.name == "END", line.text.uppercased() == "VCARD" {
                isComplete = true
                break
            }
            switch line.name {
            case "FN": fullName = fullName ?? PayloadText.nonEmpty(line.text)
            case "N": structuredName = structuredName ?? readingOrder(line.components)
            case "ORG": organization = organization ?? joined(line.components)
            case "TITLE": title = title ?? PayloadText.nonEmpty(line.text)
            case "TEL":
                // vCard 4.0 writes numbers as `tel:` URIs.
                let number = PayloadText.afterPrefix(line.text, ["tel:"]) ?? line.text
                PayloadText.nonEmpty(number).map { phones.append($0) }
            case "EMAIL": PayloadText.nonEmpty(line.text).map { emails.append($0) }
            case "ADR": joined(line.components).map { addresses.append($0) }
            case "URL": PayloadText.nonEmpty(line.text).map { urls.append($0) }
            case "NOTE": note = note ?? PayloadText.nonEmpty(line.text)
            case "BDAY": birthday = birthday ?? PayloadText.nonEmpty(line.text)
            default: break
            }
        }
        return ContactContent(format: .vCard, name: fullName ?? structuredName, organization: organization,
                              title: title, phoneNumbers: phones, emails: emails, addresses: addresses, urls: urls,
                              note: note, birthday: birthday, isComplete: isComplete)
    }

    /// `N:family;given;additional;prefix;suffix` in reading order: `Dr. Jane Q. Doe Jr.`.
    private static func readingOrder(_ parts: [String]) -> String? {
        let order = [3, 1, 2, 0, 4]
        let words = order.compactMap { $0 < parts.count ? PayloadText.nonEmpty(parts[$0]) : nil }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    private static func joined(_ parts: [String]) -> String? {
        let nonEmpty = parts.compactMap(PayloadText.nonEmpty)
        return nonEmpty.isEmpty ? nil : nonEmpty.joined(separator: ", ")
    }

    private static func parseMECARD(_ body: String) -> ContactContent {
        let (fields, isTerminated) = SemicolonFields.parse(body)
        func first(_ key: String) -> String? {
            fields.first { $0.key == key }.flatMap { PayloadText.nonEmpty($0.value) }
        }
        func all(_ keys: Set<String>) -> [String] {
            fields.filter { keys.contains($0.key) }.compactMap { PayloadText.nonEmpty($0.value) }
        }
        var name = first("N")
        if let written = name, written.contains(",") {
            // MECARD's N is `family,given`.
            name = readingOrder(written.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
        }
        return ContactContent(format: .mecard, name: name, organization: first("ORG"), title: first("TITLE"),
                              phoneNumbers: all(["TEL", "TEL-AV"]), emails: all(["EMAIL"]), addresses: all(["ADR"]),
                              urls: all(["URL"]), note: first("NOTE"), birthday: first("BDAY"),
                              isComplete: isTerminated)
    }

    var summaryText: String {
        var label = format == .vCard ? "vCard" : "MECARD"
        if !isComplete {
            label += " (truncated)"
        }
        var parts = [name ?? organization, phoneNumbers.first ?? emails.first].compactMap { $0 }
        if parts.isEmpty {
            parts = [addresses.first ?? urls.first ?? note ?? birthday ?? title].compactMap { $0 }
        }
        return label + ": " + parts.joined(separator: ", ")
    }

    func addLogFields(to fields: inout LogFieldList) {
        fields.add("format", format.rawValue)
        fields.add("name", name)
        fields.add("organization", organization)
        fields.add("title", title)
        fields.add("phones", phoneNumbers)
        fields.add("emails", emails)
        fields.add("addresses", addresses)
        fields.add("urls", urls)
        fields.add("note", note)
        fields.add("birthday", birthday)
        fields.add("complete", isComplete)
    }
}
