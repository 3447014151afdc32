import Foundation

/// An EMVCo merchant-presented QR code (EMV QRCPS-MPM), the format behind bank QR payments such as Brazil's PIX,
/// Singapore's SGQR/PayNow, Thailand's PromptPay and India's Bharat QR: `ID LL value` triples (two-digit tag,
/// two-digit length in characters), starting `000201` and ending with the CRC element `6304XXXX`.
///
/// The CRC is CRC-16/CCITT-FALSE over the UTF-8 bytes of everything up to and including `6304`. A payload whose
/// structure is sound but whose CRC does not match is still reported, with `crcValid == false`: a damaged or
/// tampered payment code is something to show, not to hide.
public struct EMVCoContent: Sendable, Equatable {
    /// The top-level data objects in payload order, the CRC included.
    public let elements: [EMVCoElement]
    /// Whether the CRC in the payload matches the one computed over it.
    public let crcValid: Bool

    /// Creates a payment code from its parts; `parse` is the usual way in.
    public init(elements: [EMVCoElement], crcValid: Bool) {
        self.elements = elements
        self.crcValid = crcValid
    }

    /// The value of the first top-level object with this tag.
    public func value(for tag: String) -> String? {
        elements.first { $0.tag == tag }?.value
    }

    /// Tag 59, the merchant's name.
    public var merchantName: String? { value(for: "59") }
    /// Tag 60, the merchant's city.
    public var merchantCity: String? { value(for: "60") }
    /// Tag 54, the amount as written (`12.50`); nil when the payer types it in (a static code, usually).
    public var amount: String? { value(for: "54") }
    /// Tag 53, the ISO 4217 numeric currency code (`702`).
    public var currencyCode: String? { value(for: "53") }
    /// The ISO 4217 alphabetic code for `currencyCode` (`SGD`), or the numeric code for a currency not listed.
    public var currency: String? { currencyCode.map { ISO4217.alphabeticCodes[$0] ?? $0 } }
    /// Tag 58, the ISO 3166-1 alpha-2 country code (`SG`).
    public var countryCode: String? { value(for: "58") }
    /// Tag 52, the ISO 18245 merchant category code (`5812`).
    public var merchantCategoryCode: String? { value(for: "52") }
    /// Tag 61, the merchant's postal code.
    public var postalCode: String? { value(for: "61") }
    /// Tag 01: true for a one-time code (`12`), false for a reusable one (`11`), nil when absent.
    public var isDynamic: Bool? {
        switch value(for: "01") {
        case "12": return true
        case "11": return false
        default: return nil
        }
    }
    /// Tags 02-51, how the merchant is paid: card network IDs (02-25) and account templates (26-51).
    public var merchantAccounts: [EMVCoMerchantAccount] {
        elements.filter { ("02"..."51").contains($0.tag) }.map(EMVCoMerchantAccount.init)
    }
    /// Tag 62, the additional data field template; nil when absent or malformed.
    public var additionalData: EMVCoAdditionalData? {
        value(for: "62").flatMap { EMVCoContent.dataObjects(Array($0.unicodeScalars)[...]) }
            .map(EMVCoAdditionalData.init)
    }
    /// The CRC as written in the payload (tag 63).
    public var crc: String { value(for: "63") ?? "" }

    /// A payment code with well-formed data objects ending in a four-character CRC; nil for anything else,
    /// including a payload cut short.
    static func parse(_ text: String) -> EMVCoContent? {
        guard text.hasPrefix("000201") else { return nil }
        let scalars = Array(text.unicodeScalars)
        guard let objects = dataObjects(scalars[...]), let last = objects.last, last.element.tag == "63",
              last.element.value.unicodeScalars.count == 4
        else { return nil }
        let covered = PayloadText.string(scalars[..<last.valueStart])
        let expected = String(format: "%04X", crc16(covered.utf8))
        return EMVCoContent(elements: objects.map(\.element), crcValid: last.element.value.uppercased() == expected)
    }

    /// Splits `ID LL value` triples; nil unless they cover `scalars` exactly.
    static func dataObjects(_ scalars: ArraySlice<Unicode.Scalar>) -> [(element: EMVCoElement, valueStart: Int)]? {
        var objects: [(element: EMVCoElement, valueStart: Int)] = []
        var index = scalars.startIndex
        while index < scalars.endIndex {
            guard index + 4 <= scalars.endIndex else { return nil }
            let tag = PayloadText.string(scalars[index..<index + 2])
            let lengthText = PayloadText.string(scalars[index + 2..<index + 4])
            guard PayloadText.isDigits(tag), PayloadText.isDigits(lengthText), let length = Int(lengthText),
                  index + 4 + length <= scalars.endIndex
            else { return nil }
            let value = PayloadText.string(scalars[index + 4..<index + 4 + length])
            objects.append((EMVCoElement(tag: tag, value: value), index + 4))
            index += 4 + length
        }
        return objects
    }

    /// CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR.
    static func crc16<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 {
                crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
            }
        }
        return crc
    }

    var summaryText: String {
        let money = amount.map { $0 + (currency.map { " " + $0 } ?? "") } ?? currency
        let parts = [merchantName ?? "unknown merchant", merchantCity, money].compactMap { $0 }
        return "EMVCo: " + parts.joined(separator: ", ") + (crcValid ? " (CRC ok)" : " (CRC BAD)")
    }

    func addLogFields(to fields: inout LogFieldList) {
        fields.add("merchant", merchantName)
        fields.add("city", merchantCity)
        fields.add("amount", amount)
        fields.add("currency", currency)
        fields.add("crc_valid", crcValid)
        fields.add("country", countryCode)
        fields.add("merchant_category_code", merchantCategoryCode)
        fields.add("initiation", isDynamic.map { $0 ? "dynamic" : "static" })
        fields.add("postal_code", postalCode)
        if let data = additionalData {
            fields.add("bill_number", data.billNumber)
            fields.add("mobile_number", data.mobileNumber)
            fields.add("store", data.storeLabel)
            fields.add("reference", data.referenceLabel)
            fields.add("terminal", data.terminalLabel)
            fields.add("purpose", data.purpose)
        }
        fields.add("accounts", objects: merchantAccounts.map { account in
            var object = LogFieldList()
            object.add("tag", account.tag)
            object.add("id", account.globallyUniqueIdentifier)
            object.add("value", account.value)
            return object.fields
        })
        fields.add("crc", crc)
    }
}

/// One top-level EMVCo data object: a two-digit tag and its value.
public struct EMVCoElement: Sendable, Equatable {
    /// The two-digit ID (`59`).
    public let tag: String
    /// The value as written; a template's value is itself data objects.
    public let value: String

    /// A data object `tag` with `value`.
    public init(tag: String, value: String) {
        self.tag = tag
        self.value = value
    }
}

/// How a merchant is paid: one of tags 02-51.
public struct EMVCoMerchantAccount: Sendable, Equatable {
    /// The tag, `02`-`51`.
    public let tag: String
    /// The value as written, kept whole: each scheme defines its own contents.
    public let value: String
    /// For a template (tags 26-51), its sub-tag 00: the scheme's globally unique identifier, such as
    /// `br.gov.bcb.pix`, `SG.PAYNOW` or an AID (`A000000677010111`); nil otherwise.
    public let globallyUniqueIdentifier: String?

    init(_ element: EMVCoElement) {
        tag = element.tag
        value = element.value
        if element.tag >= "26", let objects = EMVCoContent.dataObjects(Array(element.value.unicodeScalars)[...]) {
            globallyUniqueIdentifier = objects.first { $0.element.tag == "00" }?.element.value
        } else {
            globallyUniqueIdentifier = nil
        }
    }
}

/// The additional data field template (tag 62). `***` in a field asks the payer's app to prompt for it.
public struct EMVCoAdditionalData: Sendable, Equatable {
    /// Sub-tag 01, the invoice or bill number.
    public let billNumber: String?
    /// Sub-tag 02, a mobile number (for top-ups or bill payment).
    public let mobileNumber: String?
    /// Sub-tag 03, the store.
    public let storeLabel: String?
    /// Sub-tag 04, a loyalty card number.
    public let loyaltyNumber: String?
    /// Sub-tag 05, the reference (PIX: the transaction ID).
    public let referenceLabel: String?
    /// Sub-tag 06, the customer.
    public let customerLabel: String?
    /// Sub-tag 07, the terminal.
    public let terminalLabel: String?
    /// Sub-tag 08, the purpose of the transaction.
    public let purpose: String?

    init(_ objects: [(element: EMVCoElement, valueStart: Int)]) {
        func value(_ tag: String) -> String? {
            objects.first { $0.element.tag == tag }.flatMap { PayloadText.nonEmpty($0.element.value) }
        }
        billNumber = value("01")
        mobileNumber = value("02")
        storeLabel = value("03")
        loyaltyNumber = value("04")
        referenceLabel = value("05")
        customerLabel = value("06")
        terminalLabel = value("07")
        purpose = value("08")
    }
}
