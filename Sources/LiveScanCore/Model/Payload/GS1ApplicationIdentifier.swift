/// What the GS1 General Specifications (section 3) say about one application identifier (AI): its data title,
/// how long its value is, and whether the value is digits with a mod-10 check digit. This covers the AIs found
/// on trade items, logistic units and healthcare packs; an AI missing here is kept, with its value running to
/// the next separator, but not checked.
struct GS1ApplicationIdentifier {
    enum Length {
        case fixed(Int)
        case variable(maximum: Int)
    }

    let title: String
    let length: Length
    let isNumeric: Bool
    let hasCheckDigit: Bool

    private init(_ title: String, _ length: Length, numeric: Bool = false, checkDigit: Bool = false) {
        self.title = title
        self.length = length
        self.isNumeric = numeric || checkDigit
        self.hasCheckDigit = checkDigit
    }

    /// How many digits an AI starting with these two has. The GS1 system fixes this by the first two digits, which
    /// is what lets a reader split an element string that has no brackets. Nil for unassigned ranges.
    static func identifierLength(firstTwoDigits prefix: String) -> Int? {
        switch prefix {
        case "00", "01", "02", "10", "11", "12", "13", "15", "16", "17", "20", "21", "22", "30", "37",
             "90", "91", "92", "93", "94", "95", "96", "97", "98", "99":
            return 2
        case "23", "24", "25", "40", "41", "42", "71":
            return 3
        case "31", "32", "33", "34", "35", "36", "39", "43", "70", "72", "80", "81", "82":
            return 4
        default:
            return nil
        }
    }

    static func lookup(_ ai: String) -> GS1ApplicationIdentifier? {
        if let known = table[ai] {
            return known
        }
        let prefix3 = String(ai.prefix(3))
        switch ai.count == 4 ? String(ai.prefix(2)) : "" {
        case "31", "32", "33", "34", "35", "36":
            // The fourth digit is the number of decimals: 3103 is kilograms with three decimals.
            let title = ["310": "NET WEIGHT (kg)", "320": "NET WEIGHT (lb)", "330": "GROSS WEIGHT (kg)"][prefix3]
            return .init(title ?? "MEASURE", .fixed(6), numeric: true)
        case "39":
            // 391n and 393n put an ISO 4217 currency number before the amount.
            let title = prefix3 == "390" || prefix3 == "391" ? "AMOUNT" : "PRICE"
            switch prefix3 {
            case "390", "392": return .init(title, .variable(maximum: 15), numeric: true)
            case "391", "393": return .init(title, .variable(maximum: 18), numeric: true)
            case "394": return .init("PRCNT OFF", .fixed(4), numeric: true)
            case "395": return .init("PRICE/UoM", .fixed(6), numeric: true)
            default: return nil
            }
        case "70":
            return prefix3 == "703" ? .init("PROCESSOR #", .variable(maximum: 30)) : nil
        case "72":
            return prefix3 == "723" ? .init("CERT #", .variable(maximum: 30)) : nil
        default:
            if ai.count == 3, ("710"..."716").contains(ai) {
                return .init("NHRN", .variable(maximum: 20))
            }
            return nil
        }
    }

    private static let table: [String: GS1ApplicationIdentifier] = {
        var table: [String: GS1ApplicationIdentifier] = [
            "00": .init("SSCC", .fixed(18), checkDigit: true),
            "01": .init("GTIN", .fixed(14), checkDigit: true),
            "02": .init("CONTENT", .fixed(14), checkDigit: true),
            "10": .init("BATCH/LOT", .variable(maximum: 20)),
            "11": .init("PROD DATE", .fixed(6), numeric: true),
            "12": .init("DUE DATE", .fixed(6), numeric: true),
            "13": .init("PACK DATE", .fixed(6), numeric: true),
            "15": .init("BEST BEFORE or BEST BY", .fixed(6), numeric: true),
            "16": .init("SELL BY", .fixed(6), numeric: true),
            "17": .init("USE BY or EXPIRY", .fixed(6), numeric: true),
            "20": .init("VARIANT", .fixed(2), numeric: true),
            "21": .init("SERIAL", .variable(maximum: 20)),
            "22": .init("CPV", .variable(maximum: 20)),
            "235": .init("TPX", .variable(maximum: 28)),
            "240": .init("ADDITIONAL ID", .variable(maximum: 30)),
            "241": .init("CUST. PART No.", .variable(maximum: 30)),
            "242": .init("MTO VARIANT", .variable(maximum: 6), numeric: true),
            "243": .init("PCN", .variable(maximum: 20)),
            "250": .init("SECONDARY SERIAL", .variable(maximum: 30)),
            "251": .init("REF. TO SOURCE", .variable(maximum: 30)),
            "253": .init("GDTI", .variable(maximum: 30)),
            "254": .init("GLN EXTENSION COMPONENT", .variable(maximum: 20)),
            "255": .init("GCN", .variable(maximum: 25), numeric: true),
            "30": .init("VAR. COUNT", .variable(maximum: 8), numeric: true),
            "37": .init("COUNT", .variable(maximum: 8), numeric: true),
            "400": .init("ORDER NUMBER", .variable(maximum: 30)),
            "401": .init("GINC", .variable(maximum: 30)),
            "402": .init("GSIN", .fixed(17), numeric: true),
            "403": .init("ROUTE", .variable(maximum: 30)),
            "420": .init("SHIP TO POST", .variable(maximum: 20)),
            "421": .init("SHIP TO POST", .variable(maximum: 12)),
            "422": .init("ORIGIN", .fixed(3), numeric: true),
            "423": .init("COUNTRY - INITIAL PROCESS.", .variable(maximum: 15), numeric: true),
            "424": .init("COUNTRY - PROCESS.", .fixed(3), numeric: true),
            "425": .init("COUNTRY - DISASSEMBLY", .variable(maximum: 15), numeric: true),
            "426": .init("COUNTRY - FULL PROCESS", .fixed(3), numeric: true),
            "427": .init("ORIGIN SUBDIVISION", .variable(maximum: 3)),
            "7001": .init("NSN", .fixed(13), numeric: true),
            "7002": .init("MEAT CUT", .variable(maximum: 30)),
            "7003": .init("EXPIRY TIME", .fixed(10), numeric: true),
            "7004": .init("ACTIVE POTENCY", .variable(maximum: 4), numeric: true),
            "7005": .init("CATCH AREA", .variable(maximum: 12)),
            "7006": .init("FIRST FREEZE DATE", .fixed(6), numeric: true),
            "7007": .init("HARVEST DATE", .variable(maximum: 12), numeric: true),
            "7008": .init("AQUATIC SPECIES", .variable(maximum: 3)),
            "7009": .init("FISHING GEAR TYPE", .variable(maximum: 10)),
            "7010": .init("PROD METHOD", .variable(maximum: 2)),
            "8001": .init("DIMENSIONS", .fixed(14), numeric: true),
            "8002": .init("CMT No.", .variable(maximum: 20)),
            "8003": .init("GRAI", .variable(maximum: 30)),
            "8004": .init("GIAI", .variable(maximum: 30)),
            "8005": .init("PRICE PER UNIT", .fixed(6), numeric: true),
            "8006": .init("ITIP", .fixed(18), numeric: true),
            "8007": .init("IBAN", .variable(maximum: 34)),
            "8008": .init("PROD TIME", .variable(maximum: 12), numeric: true),
            "8017": .init("GSRN - PROVIDER", .fixed(18), checkDigit: true),
            "8018": .init("GSRN - RECIPIENT", .fixed(18), checkDigit: true),
            "8020": .init("REF No.", .variable(maximum: 25)),
            "8200": .init("PRODUCT URL", .variable(maximum: 70)),
            "90": .init("INTERNAL", .variable(maximum: 30)),
        ]
        let locationTitles = ["SHIP TO LOC", "BILL TO", "PURCHASE FROM", "SHIP FOR LOC", "LOC No.", "PAY TO",
                              "PROD/SERV LOC", "PARTY"]
        for (offset, title) in locationTitles.enumerated() {
            table["41\(offset)"] = .init(title, .fixed(13), checkDigit: true)
        }
        for company in 91...99 {
            table[String(company)] = .init("INTERNAL", .variable(maximum: 90))
        }
        return table
    }()

    /// The GS1 mod-10 check: weights 3 and 1 alternate leftwards from the digit before the check digit.
    static func hasValidCheckDigit(_ digits: String) -> Bool {
        let values = digits.utf8.map { Int($0) - 0x30 }
        guard values.count >= 2, values.allSatisfy({ (0...9).contains($0) }) else { return false }
        var sum = 0
        for (position, value) in values.dropLast().reversed().enumerated() {
            sum += value * (position % 2 == 0 ? 3 : 1)
        }
        return (10 - sum % 10) % 10 == values[values.count - 1]
    }
}
