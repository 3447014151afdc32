import Foundation

/// Works out what a barcode payload means. `parse` never traps and runs in time linear in the payload's
/// length; a structured payload that does not parse cleanly is `.text`, with two deliberate exceptions:
/// - an EMVCo payment code whose TLV structure is sound but whose CRC does not match stays `.emvco` with
///   `crcValid == false`, because a damaged or tampered payment code must be flagged, not hidden;
/// - a vCard or VEVENT cut short (no `END:` line) stays a contact or event with `isComplete == false` when it
///   has its `BEGIN:` line and at least one field, because a partly read business card is still useful. Its
///   last field may itself be cut.
public enum PayloadParser {
    /// Payloads longer than this many UTF-8 bytes are not examined and are `.text`. The largest QR code holds
    /// 7,089 digits and the largest Data Matrix 3,116 characters, so only a bug or an attack gets near it.
    public static let maximumLength = 100_000

    /// What `payload` means. `symbologyIdentifier` is the AIM identifier the decoder reported (`]C1`, `]Q3`,
    /// `]d2`, `]e0`, ...): it tells a GS1 element string without separators from an ordinary number.
    public static func parse(_ payload: String, symbologyIdentifier: String? = nil) -> PayloadContent {
        guard !payload.isEmpty, payload.utf8.count <= maximumLength else { return .text }
        // Generators often end a payload with a newline; no format here has meaningful outer whitespace.
        let text = payload.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return .text }

        if let content = GS1Content.parse(text, symbologyIdentifier: symbologyIdentifier) {
            return .gs1(content)
        }
        if let content = EMVCoContent.parse(text) {
            return .emvco(content)
        }
        if PayloadText.hasPrefix(text, ignoringCase: "WIFI:") {
            return WiFiContent.parse(text).map(PayloadContent.wifi) ?? .text
        }
        if PayloadText.hasPrefix(text, ignoringCase: "BEGIN:VCARD")
            || PayloadText.hasPrefix(text, ignoringCase: "MECARD:") {
            return ContactContent.parse(text).map(PayloadContent.contact) ?? .text
        }
        if PayloadText.hasPrefix(text, ignoringCase: "BEGIN:VCALENDAR")
            || PayloadText.hasPrefix(text, ignoringCase: "BEGIN:VEVENT") {
            return EventContent.parse(text).map(PayloadContent.event) ?? .text
        }
        if let content = EmailContent.parse(text) {
            return .email(content)
        }
        if let rest = PayloadText.afterPrefix(text, ["tel:"]) {
            let number = PayloadText.percentDecoded(rest)
            return PayloadText.isPlausiblePhoneNumber(number) ? .phone(number: number) : .text
        }
        if let content = SMSContent.parse(text) {
            return .sms(content)
        }
        if let content = GeoContent.parse(text) {
            return .geo(content)
        }
        if let content = URLContent.parse(text) {
            return .url(content)
        }
        return .text
    }
}
