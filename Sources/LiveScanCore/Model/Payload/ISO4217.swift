/// ISO 4217 currency codes, numeric to alphabetic, for the currencies of the countries where EMVCo QR payments
/// are in use, and the major reserve currencies. A code missing here is shown as its number.
enum ISO4217 {
    static let alphabeticCodes: [String: String] = [
        "032": "ARS", "036": "AUD", "050": "BDT", "104": "MMK", "116": "KHR", "124": "CAD", "144": "LKR",
        "152": "CLP", "156": "CNY", "170": "COP", "188": "CRC", "203": "CZK", "208": "DKK", "344": "HKD",
        "348": "HUF", "356": "INR", "360": "IDR", "376": "ILS", "392": "JPY", "398": "KZT", "404": "KES",
        "410": "KRW", "418": "LAK", "458": "MYR", "484": "MXN", "496": "MNT", "524": "NPR", "554": "NZD",
        "566": "NGN", "578": "NOK", "586": "PKR", "590": "PAB", "600": "PYG", "604": "PEN", "608": "PHP",
        "634": "QAR", "643": "RUB", "682": "SAR", "702": "SGD", "704": "VND", "710": "ZAR", "752": "SEK",
        "756": "CHF", "764": "THB", "784": "AED", "818": "EGP", "826": "GBP", "840": "USD", "858": "UYU",
        "901": "TWD", "949": "TRY", "978": "EUR", "980": "UAH", "985": "PLN", "986": "BRL",
    ]
}
