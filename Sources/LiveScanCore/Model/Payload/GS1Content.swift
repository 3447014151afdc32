import Foundation

/// A GS1 element string: the application identifiers (AIs) and values on trade items, cases and pallets, in
/// either of its two forms:
/// - human-readable, with brackets: `(01)09506000134352(17)201225(10)ABC`;
/// - as encoded, with a GS (FNC1, `\u{1D}`) after each variable-length value, marked as GS1 by the symbology
///   identifier `]C1` (GS1-128), `]e0` (DataBar), `]d2` (GS1 DataMatrix), `]Q3` (GS1 QR) or `]J1` (GS1
///   DotCode), given as the payload's prefix or as `symbologyIdentifier`, or by a leading GS.
/// Every element is kept in order as (AI, value); the common ones are also named (`gtin`, `expiry`, `lot`, ...).
public struct GS1Content: Sendable, Equatable {
    /// The elements in payload order.
    public let elements: [GS1Element]

    /// Creates an element string from its elements; `parse` is the usual way in.
    public init(elements: [GS1Element]) {
        self.elements = elements
    }

    /// The value of the first element with this AI.
    public func value(for ai: String) -> String? {
        elements.first { $0.ai == ai }?.value
    }

    /// AI 01, the trade item number (14 digits).
    public var gtin: String? { value(for: "01") }
    /// Whether AI 01's check digit is right; nil without a GTIN.
    public var gtinCheckDigitValid: Bool? { elements.first { $0.ai == "01" }?.checkDigitValid }
    /// AI 00, the serial shipping container code (18 digits).
    public var sscc: String? { value(for: "00") }
    /// AI 10, the batch or lot number.
    public var lot: String? { value(for: "10") }
    /// AI 21, the serial number.
    public var serial: String? { value(for: "21") }
    /// AI 400, the customer's purchase order number.
    public var orderNumber: String? { value(for: "400") }
    /// AI 17, the use-by or expiry date.
    public var expiry: GS1Date? { value(for: "17").flatMap { GS1Date($0) } }
    /// AI 15, the best-before date.
    public var bestBefore: GS1Date? { value(for: "15").flatMap { GS1Date($0) } }
    /// AI 11, the production date.
    public var productionDate: GS1Date? { value(for: "11").flatMap { GS1Date($0) } }
    /// AI 13, the packaging date.
    public var packagingDate: GS1Date? { value(for: "13").flatMap { GS1Date($0) } }
    /// AI 310n, the net weight in kilograms (`n` is the number of decimals).
    public var netWeightKilograms: Double? {
        guard let element = elements.first(where: { $0.ai.count == 4 && $0.ai.hasPrefix("310") }),
              let decimals = Int(element.ai.suffix(1)), let raw = Double(element.value)
        else { return nil }
        return raw / pow(10, Double(decimals))
    }
    /// False when any element with a check digit (SSCC, GTIN, GLN, GSRN) has a wrong one. The elements are
    /// still reported: a misprinted code should be seen, and flagged.
    public var checkDigitsValid: Bool { elements.allSatisfy { $0.checkDigitValid != false } }

    /// AIM symbology identifiers that mark GS1 data.
    static let gs1SymbologyIdentifiers: Set<String> = ["]C1", "]e0", "]d2", "]Q3", "]J1"]
    private static let groupSeparator: Unicode.Scalar = "\u{1D}"

    /// A GS1 element string whose every element is well formed; nil for anything else, including an ordinary
    /// number with no GS1 marker (an EAN-13 is a GTIN-13, but its payload alone says nothing more).
    static func parse(_ text: String, symbologyIdentifier: String?) -> GS1Content? {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.first else { return nil }
        if first == "(" {
            return parseBracketed(scalars)
        }
        let prefix = PayloadText.string(scalars.prefix(3))
        let hasIdentifierPrefix = gs1SymbologyIdentifiers.contains(prefix)
        let isMarked = hasIdentifierPrefix || first == groupSeparator
            || symbologyIdentifier.map(gs1SymbologyIdentifiers.contains) == true
            || (("0"..."9").contains(first) && scalars.contains(groupSeparator))
        guard isMarked else { return nil }
        return parseEncoded(scalars[(hasIdentifierPrefix ? 3 : 0)...])
    }

    /// `AI value [GS] AI value ...`: fixed-length values end by their length, the others at a GS or the end.
    private static func parseEncoded(_ scalars: ArraySlice<Unicode.Scalar>) -> GS1Content? {
        var elements: [GS1Element] = []
        var index = scalars.startIndex
        while index < scalars.endIndex, scalars[index] == groupSeparator {
            index += 1  // FNC1 in first position, sometimes transmitted
        }
        while index < scalars.endIndex {
            guard let (ai, afterAI) = identifier(in: scalars, at: index) else { return nil }
            index = afterAI
            let specification = GS1ApplicationIdentifier.lookup(ai)
            var end: Int
            if case let .fixed(length) = specification?.length {
                end = index + length
                guard end <= scalars.endIndex else { return nil }
            } else {
                end = index
                while end < scalars.endIndex, scalars[end] != groupSeparator {
                    end += 1
                }
            }
            guard let element = GS1Element(ai: ai, value: PayloadText.string(scalars[index..<end])) else { return nil }
            elements.append(element)
            index = end
            if index < scalars.endIndex, scalars[index] == groupSeparator {
                index += 1
            }
        }
        return elements.isEmpty ? nil : GS1Content(elements: elements)
    }

    /// An AI of the length its first two digits call for, at `index`; and the index after it.
    private static func identifier(in scalars: ArraySlice<Unicode.Scalar>, at index: Int) -> (String, Int)? {
        guard index + 2 <= scalars.endIndex else { return nil }
        let firstTwo = PayloadText.string(scalars[index..<index + 2])
        guard let length = GS1ApplicationIdentifier.identifierLength(firstTwoDigits: firstTwo),
              index + length <= scalars.endIndex
        else { return nil }
        let ai = PayloadText.string(scalars[index..<index + length])
        return PayloadText.isDigits(ai) ? (ai, index + length) : nil
    }

    /// `(AI)value(AI)value...`: a value runs to the next `(` that opens a well-formed AI. (A value holding such a
    /// bracketed number is ambiguous in this form by design; the encoded form is not.)
    private static func parseBracketed(_ scalars: [Unicode.Scalar]) -> GS1Content? {
        var elements: [GS1Element] = []
        var index = 0
        while index < scalars.count {
            guard let (ai, afterAI) = bracketedIdentifier(in: scalars, at: index) else { return nil }
            var end = afterAI
            while end < scalars.count, bracketedIdentifier(in: scalars, at: end) == nil {
                end += 1
            }
            guard let element = GS1Element(ai: ai, value: PayloadText.string(scalars[afterAI..<end])) else {
                return nil
            }
            elements.append(element)
            index = end
        }
        return elements.isEmpty ? nil : GS1Content(elements: elements)
    }

    /// `(AI)` at `index`, looking at no more than six scalars, so the scan stays linear.
    private static func bracketedIdentifier(in scalars: [Unicode.Scalar], at index: Int) -> (String, Int)? {
        guard scalars[index] == "(", let (ai, afterAI) = identifier(in: scalars[(index + 1)...], at: index + 1),
              afterAI < scalars.count, scalars[afterAI] == ")"
        else { return nil }
        return (ai, afterAI + 1)
    }

    var summaryText: String {
        var parts: [String] = []
        if let sscc {
            let isBad = elements.first { $0.ai == "00" }?.checkDigitValid == false
            parts.append("SSCC " + sscc + (isBad ? " (check digit BAD)" : ""))
        }
        if let gtin {
            parts.append("GTIN " + gtin + (gtinCheckDigitValid == false ? " (check digit BAD)" : ""))
        }
        if let date = bestBefore { parts.append("best before " + date.iso8601) }
        if let date = expiry { parts.append("expiry " + date.iso8601) }
        if let lot { parts.append("lot " + lot) }
        if let serial { parts.append("serial " + serial) }
        if let netWeightKilograms { parts.append("\(netWeightKilograms) kg") }
        if let orderNumber { parts.append("order " + orderNumber) }
        if parts.isEmpty {
            parts = elements.prefix(3).map { "(" + $0.ai + ") " + $0.value }
        }
        return "GS1: " + parts.joined(separator: ", ")
    }

    func addLogFields(to fields: inout LogFieldList) {
        fields.add("gtin", gtin)
        fields.add("sscc", sscc)
        if elements.contains(where: { $0.checkDigitValid != nil }) {
            fields.add("check_digits_valid", checkDigitsValid)
        }
        fields.add("expiry", expiry?.iso8601)
        fields.add("best_before", bestBefore?.iso8601)
        fields.add("production_date", productionDate?.iso8601)
        fields.add("packaging_date", packagingDate?.iso8601)
        fields.add("lot", lot)
        fields.add("serial", serial)
        fields.add("order_number", orderNumber)
        fields.add("net_weight_kg", number: netWeightKilograms)
        fields.add("elements", objects: elements.map { element in
            var object = LogFieldList()
            object.add("ai", element.ai)
            object.add("value", element.value)
            object.add("check_digit_valid", element.checkDigitValid)
            return object.fields
        })
    }
}

/// One application identifier and its value.
public struct GS1Element: Sendable, Equatable {
    /// The application identifier, 2-4 digits (`01`, `3103`, `8200`).
    public let ai: String
    /// The value as encoded.
    public let value: String
    /// The GS1 data title (`GTIN`, `USE BY or EXPIRY`); nil for an AI this parser does not know.
    public let title: String?
    /// Whether the mod-10 check digit is right, for AIs that carry one; nil for the others.
    public let checkDigitValid: Bool?

    /// An element, if `value` fits what the GS1 General Specifications allow for `ai` (length, digits only);
    /// a wrong check digit is allowed and flagged.
    init?(ai: String, value: String) {
        // GS1's character sets have neither spaces nor control characters; a stray one means a misread.
        guard !value.isEmpty, !PayloadText.hasWhitespaceOrControl(value) else { return nil }
        let specification = GS1ApplicationIdentifier.lookup(ai)
        if let specification {
            let length = value.unicodeScalars.count
            switch specification.length {
            case let .fixed(expected): guard length == expected else { return nil }
            case let .variable(maximum): guard length <= maximum else { return nil }
            }
            guard !specification.isNumeric || PayloadText.isDigits(value) else { return nil }
        }
        self.ai = ai
        self.value = value
        title = specification?.title
        let hasCheckDigit = specification?.hasCheckDigit == true
        checkDigitValid = hasCheckDigit ? GS1ApplicationIdentifier.hasValidCheckDigit(value) : nil
    }
}

/// A GS1 date, `YYMMDD`. A day of `00` means the month as a whole (a best-before month, say). The century follows
/// the GS1 sliding window: a year more than 50 ahead of the current one is in the past century, one 50 or more
/// behind it in the next.
public struct GS1Date: Sendable, Equatable {
    /// The four-digit year.
    public let year: Int
    /// The month, 1-12.
    public let month: Int
    /// The day of the month; nil when the code gives `00`.
    public let day: Int?

    /// `2020-12-25`, or `2020-12` for a whole month.
    public var iso8601: String {
        let month = String(format: "%04d-%02d", year, self.month)
        return day.map { month + String(format: "-%02d", $0) } ?? month
    }

    /// Reads `YYMMDD`; nil for anything else or an impossible month or day.
    init?(_ text: String, currentYear: Int = Calendar(identifier: .gregorian).component(.year, from: Date())) {
        guard text.utf8.count == 6, PayloadText.isDigits(text),
              let twoDigitYear = Int(text.prefix(2)), let month = Int(text.dropFirst(2).prefix(2)),
              let day = Int(text.suffix(2)), (1...12).contains(month), (0...31).contains(day)
        else { return nil }
        let century = currentYear - currentYear % 100
        var year = century + twoDigitYear
        let difference = twoDigitYear - currentYear % 100
        if difference >= 51 {
            year -= 100
        } else if difference <= -50 {
            year += 100
        }
        self.year = year
        self.month = month
        self.day = day == 0 ? nil : day
    }
}
