import Foundation
import Testing
@testable import LiveScanCore

/// The payload parsers on published real-world samples, on common generator output, and on damaged input.
@Suite("PayloadContent")
struct PayloadContentTests {
    // MARK: EMVCo

    /// The static PIX code from the Banco Central do Brasil's BR Code manual; its CRC 1D3D was also checked
    /// with an independent CRC-16/CCITT-FALSE implementation.
    static let pix = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000"
        + "5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"

    /// The example in the EMVCo QRCPS-MPM specification: Chinese text in the language template (tag 64) shows
    /// that lengths count characters while the CRC runs over UTF-8 bytes.
    static let emvcoSpecification = "00020101021229300012D156000000000510A93FO3230Q31280012D15600000001030812345678"
        + "520441115802CN5914BEST TRANSPORT6007BEIJING64200002ZH0104最佳运输0202北京540523.7253031565502016233030412"
        + "340603***0708A60086670902ME91320016A0112233449988770708123456786304A13A"

    /// A PayNow (SGQR-style) dynamic code; CRC computed independently.
    static let payNow = "00020101021226380009SG.PAYNOW010120211+659123456703010520458125303702540512.505802SG"
        + "5911Coffee Shop6009Singapore6304B2C9"

    @Test func pixSampleParsesWithValidCRC() throws {
        guard case let .emvco(content) = PayloadParser.parse(Self.pix) else {
            Issue.record("not EMVCo")
            return
        }
        #expect(content.crcValid)
        #expect(content.crc == "1D3D")
        #expect(content.merchantName == "Fulano de Tal")
        #expect(content.merchantCity == "BRASILIA")
        #expect(content.amount == nil)
        #expect(content.currencyCode == "986")
        #expect(content.currency == "BRL")
        #expect(content.countryCode == "BR")
        #expect(content.merchantCategoryCode == "0000")
        #expect(content.merchantAccounts.map(\.tag) == ["26"])
        #expect(content.merchantAccounts.first?.globallyUniqueIdentifier == "br.gov.bcb.pix")
        #expect(content.additionalData?.referenceLabel == "***")
        #expect(PayloadParser.parse(Self.pix).summary == "EMVCo: Fulano de Tal, BRASILIA, BRL (CRC ok)")
    }

    @Test func pixWithOneCharacterChangedIsFlaggedNotHidden() {
        let tampered = Self.pix.replacingOccurrences(of: "Fulano de Tal", with: "Fulano de Tel")
        let content = PayloadParser.parse(tampered)
        guard case let .emvco(emvco) = content else {
            Issue.record("a bad CRC must stay EMVCo")
            return
        }
        #expect(!emvco.crcValid)
        #expect(emvco.merchantName == "Fulano de Tel")
        #expect(content.summary == "EMVCo: Fulano de Tel, BRASILIA, BRL (CRC BAD)")
        #expect(content.logFields.contains(.init("crc_valid", .bool(false))))
    }

    @Test func emvcoSpecificationSampleCountsCharactersAndChecksUTF8() {
        guard case let .emvco(content) = PayloadParser.parse(Self.emvcoSpecification) else {
            Issue.record("not EMVCo")
            return
        }
        #expect(content.crcValid)
        #expect(content.merchantName == "BEST TRANSPORT")
        #expect(content.merchantCity == "BEIJING")
        #expect(content.amount == "23.72")
        #expect(content.currency == "CNY")
        #expect(content.isDynamic == true)
        #expect(content.value(for: "64") == "0002ZH0104最佳运输0202北京")
        #expect(content.additionalData?.storeLabel == "1234")
        #expect(content.additionalData?.customerLabel == "***")
        #expect(content.additionalData?.terminalLabel == "A6008667")
    }

    @Test func emvcoLogObjectLeadsWithTheIssueFields() {
        let fields = PayloadParser.parse(Self.payNow).logFields
        #expect(Array(fields.prefix(7)) == [
            .init("type", .string("emvco")),
            .init("merchant", .string("Coffee Shop")),
            .init("city", .string("Singapore")),
            .init("amount", .string("12.50")),
            .init("currency", .string("SGD")),
            .init("crc_valid", .bool(true)),
            .init("country", .string("SG")),
        ])
        #expect(fields.contains(.init("accounts", .array([.object([
            .init("tag", .string("26")),
            .init("id", .string("SG.PAYNOW")),
            .init("value", .string("0009SG.PAYNOW010120211+659123456703010")),
        ])]))))
        #expect(PayloadParser.parse(Self.payNow).summary == "EMVCo: Coffee Shop, Singapore, 12.50 SGD (CRC ok)")
    }

    @Test func emvcoCRCIsCaseInsensitive() {
        let lower = String(Self.emvcoSpecification.dropLast(4)) + "a13a"
        guard case let .emvco(content) = PayloadParser.parse(lower) else {
            Issue.record("not EMVCo")
            return
        }
        #expect(content.crcValid)
    }

    @Test(arguments: [
        String(pix.dropLast(10)),                     // cut inside a data object
        String(pix.dropLast(2)),                      // cut inside the CRC object's value
        String(pix.dropLast(8)) + "6304",             // CRC tag with nothing after it
        String(pix.dropLast(8)) + "63XY1D3D",         // a non-numeric length
        "000201",                                     // nothing but the format indicator
        "0002016304ZZZ",                              // a CRC of the wrong length
    ])
    func malformedEMVCoIsText(payload: String) {
        #expect(PayloadParser.parse(payload) == .text)
    }

    @Test func emvcoWithoutCRCObjectIsText() {
        // Cut exactly at a data-object boundary: well-formed, but a payment code without its CRC is not one.
        let withoutCRC = String(Self.pix.dropLast(8))
        #expect(PayloadParser.parse(withoutCRC) == .text)
    }

    @Test func crc16MatchesTheCheckValue() {
        // The catalogue check value of CRC-16/CCITT-FALSE for "123456789".
        #expect(EMVCoContent.crc16("123456789".utf8) == 0x29B1)
    }

    // MARK: Wi-Fi

    @Test func wifiUnescapesSemicolonsColonsAndBackslashes() {
        let payload = #"WIFI:S:Cafe\;Bar\:2;T:WPA;P:pa\;ss\\word\:x;H:true;;"#
        guard case let .wifi(content) = PayloadParser.parse(payload) else {
            Issue.record("not Wi-Fi")
            return
        }
        #expect(content.ssid == "Cafe;Bar:2")
        #expect(content.password == #"pa;ss\word:x"#)
        #expect(content.security == "WPA")
        #expect(content.isHidden)
    }

    @Test func wifiPasswordIsHiddenInTheSummaryButLogged() {
        let content = PayloadParser.parse("WIFI:T:WPA;S:HomeNet;P:correct horse;;")
        #expect(content.summary == #"Wi-Fi "HomeNet" (WPA, password hidden)"#)
        #expect(!content.summary.contains("correct"))
        #expect(content.logFields == [
            .init("type", .string("wifi")),
            .init("ssid", .string("HomeNet")),
            .init("security", .string("WPA")),
            .init("password", .string("correct horse")),
            .init("hidden", .bool(false)),
        ])
    }

    @Test func wifiOpenNetworkAndCutOffPayload() {
        #expect(PayloadParser.parse("WIFI:S:Airport Free;T:nopass;;").summary == #"Wi-Fi "Airport Free" (open)"#)
        // Without its closing `;;` the payload still says everything needed.
        guard case let .wifi(content) = PayloadParser.parse("wifi:S:Lab;T:SAE;P:secret") else {
            Issue.record("not Wi-Fi")
            return
        }
        #expect(content.password == "secret")
        #expect(content.security == "SAE")
    }

    @Test func wifiWithoutSSIDIsText() {
        #expect(PayloadParser.parse("WIFI:T:WPA;P:secret;;") == .text)
        #expect(PayloadParser.parse("WIFI:") == .text)
    }

    // MARK: Contacts

    @Test func vCard30WithFoldedLinesAndEscapes() {
        let payload = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jane;;Dr.;\r\nFN:Jane Doe\r\n"
            + "ORG:Example\\, Inc.;Research\r\nTITLE:Head of Scanning\r\nTEL;TYPE=WORK,VOICE:+1 555 0100\r\n"
            + "TEL;TYPE=CELL:+1 555 0199\r\nitem1.EMAIL;TYPE=INTERNET:jane.doe@exa\r\n mple.com\r\n"
            + "ADR;TYPE=WORK:;;100 Main St\\;Suite 4;Springfield;IL;62701;USA\r\n"
            + "NOTE:Met at the trade fair\\nBooth 12\r\nEND:VCARD\r\n"
        let content = PayloadParser.parse(payload)
        guard case let .contact(card) = content else {
            Issue.record("not a contact")
            return
        }
        #expect(card.format == .vCard)
        #expect(card.name == "Jane Doe")
        #expect(card.organization == "Example, Inc., Research")
        #expect(card.title == "Head of Scanning")
        #expect(card.phoneNumbers == ["+1 555 0100", "+1 555 0199"])
        #expect(card.emails == ["jane.doe@example.com"])
        #expect(card.addresses == ["100 Main St;Suite 4, Springfield, IL, 62701, USA"])
        #expect(card.note == "Met at the trade fair\nBooth 12")
        #expect(card.isComplete)
        #expect(content.summary == "vCard: Jane Doe, +1 555 0100")
    }

    @Test func vCardWithoutFNUsesNInReadingOrderAndTelURIs() {
        let payload = "BEGIN:VCARD\nVERSION:4.0\nN:Doe;John;Q.;;Jr.\nTEL;VALUE=uri:tel:+44-20-7946-0958\nEND:VCARD"
        guard case let .contact(card) = PayloadParser.parse(payload) else {
            Issue.record("not a contact")
            return
        }
        #expect(card.name == "John Q. Doe Jr.")
        #expect(card.phoneNumbers == ["+44-20-7946-0958"])
    }

    @Test func truncatedVCardKeepsWhatWasRead() {
        let payload = "BEGIN:VCARD\nVERSION:3.0\nFN:Jane Doe\nTEL:+1 555 01"
        let content = PayloadParser.parse(payload)
        guard case let .contact(card) = content else {
            Issue.record("a truncated vCard with fields should stay a contact")
            return
        }
        #expect(!card.isComplete)
        #expect(card.name == "Jane Doe")
        #expect(card.phoneNumbers == ["+1 555 01"])
        #expect(content.summary == "vCard (truncated): Jane Doe, +1 555 01")
        #expect(content.logFields.last == .init("complete", .bool(false)))
    }

    @Test(arguments: ["BEGIN:VCARD", "BEGIN:VCARD\nVERSION:3.0\n", "BEGIN:VCARD\nFN", "BEGIN:VCARDS\nFN:x"])
    func vCardWithoutFieldsIsText(payload: String) {
        #expect(PayloadParser.parse(payload) == .text)
    }

    @Test func mecardFromZXingExample() {
        let payload = "MECARD:N:Owen,Sean;ADR:76 9th Avenue, 4th Floor, New York, NY 10011;TEL:12125551212;"
            + "EMAIL:srowen@example.com;;"
        let content = PayloadParser.parse(payload)
        guard case let .contact(card) = content else {
            Issue.record("not a contact")
            return
        }
        #expect(card.format == .mecard)
        #expect(card.name == "Sean Owen")
        #expect(card.addresses == ["76 9th Avenue, 4th Floor, New York, NY 10011"])
        #expect(card.phoneNumbers == ["12125551212"])
        #expect(card.emails == ["srowen@example.com"])
        #expect(card.isComplete)
        #expect(content.summary == "MECARD: Sean Owen, 12125551212")
    }

    @Test func mecardWithEscapedURLAndCutOff() {
        let payload = #"MECARD:N:Tanaka,Taro;URL:https://example.jp/a\;b;NOTE:hal"#
        guard case let .contact(card) = PayloadParser.parse(payload) else {
            Issue.record("not a contact")
            return
        }
        #expect(card.name == "Taro Tanaka")
        #expect(card.urls == ["https://example.jp/a;b"])
        #expect(card.note == "hal")
        #expect(!card.isComplete)
    }

    // MARK: Calendar events

    @Test func veventInsideVCalendarWithUTCTimes() {
        let payload = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Example//EN\r\nBEGIN:VEVENT\r\n"
            + "SUMMARY:Quarterly review\r\nDTSTART:20240315T090000Z\r\nDTEND:20240315T103000Z\r\n"
            + "LOCATION:Room 4\\, Building B\r\nDESCRIPTION:Bring the\r\n  numbers\r\nEND:VEVENT\r\nEND:VCALENDAR"
        let content = PayloadParser.parse(payload)
        guard case let .event(event) = content else {
            Issue.record("not an event")
            return
        }
        #expect(event.title == "Quarterly review")
        #expect(event.start?.iso8601 == "2024-03-15T09:00:00Z")
        #expect(event.end?.iso8601 == "2024-03-15T10:30:00Z")
        #expect(event.location == "Room 4, Building B")
        #expect(event.notes == "Bring the numbers")
        #expect(event.isComplete)
        #expect(content.summary == "Event: Quarterly review, 2024-03-15 09:00 UTC, Room 4, Building B")
    }

    @Test func bareVEventWithLocalZonedAndAllDayTimes() {
        let zoned = "BEGIN:VEVENT\nSUMMARY:Stand-up\nDTSTART;TZID=Europe/Berlin:20241104T0930\nDTEND:20241104T094500\n"
            + "END:VEVENT"
        guard case let .event(event) = PayloadParser.parse(zoned) else {
            Issue.record("not an event")
            return
        }
        #expect(event.start?.iso8601 == "2024-11-04T09:30:00")
        #expect(event.start?.timeZone == "Europe/Berlin")
        #expect(event.start?.isUTC == false)
        #expect(event.end?.iso8601 == "2024-11-04T09:45:00")
        #expect(event.end?.timeZone == nil)

        let allDay = PayloadParser.parse("BEGIN:VEVENT\nSUMMARY:Holiday\nDTSTART;VALUE=DATE:20241225\nEND:VEVENT")
        guard case let .event(holiday) = allDay else {
            Issue.record("not an event")
            return
        }
        #expect(holiday.start?.isAllDay == true)
        #expect(holiday.start?.iso8601 == "2024-12-25")
        #expect(allDay.logFields.contains(.init("all_day", .bool(true))))
    }

    @Test func veventWithoutTitleOrValidStartIsText() {
        #expect(PayloadParser.parse("BEGIN:VEVENT\nDTSTART:20241345T250000Z\nEND:VEVENT") == .text)
        #expect(PayloadParser.parse("BEGIN:VCALENDAR\nVERSION:2.0\nEND:VCALENDAR") == .text)
    }

    // MARK: GS1

    @Test func gs1BracketForm() {
        let content = PayloadParser.parse("(01)09506000134352(17)201225(10)ABC")
        guard case let .gs1(gs1) = content else {
            Issue.record("not GS1")
            return
        }
        #expect(gs1.elements.map(\.ai) == ["01", "17", "10"])
        #expect(gs1.gtin == "09506000134352")
        #expect(gs1.gtinCheckDigitValid == true)
        #expect(gs1.expiry == GS1Date("201225", currentYear: 2025))
        #expect(gs1.expiry?.iso8601 == "2020-12-25")
        #expect(gs1.lot == "ABC")
        #expect(gs1.elements.first?.title == "GTIN")
        #expect(content.summary == "GS1: GTIN 09506000134352, expiry 2020-12-25, lot ABC")
    }

    @Test func gs1EncodedWithSymbologyIdentifierPrefixAndSeparators() {
        let payload = "]C1" + "00106141411234567897" + "10LOT-7\u{1D}" + "21SN0042\u{1D}" + "400PO-19"
        guard case let .gs1(gs1) = PayloadParser.parse(payload) else {
            Issue.record("not GS1")
            return
        }
        #expect(gs1.sscc == "106141411234567897")
        #expect(gs1.checkDigitsValid)
        #expect(gs1.lot == "LOT-7")
        #expect(gs1.serial == "SN0042")
        #expect(gs1.orderNumber == "PO-19")
    }

    @Test func gs1EncodedWithIdentifierFromTheDecoderAndADayOfZero() {
        // A GS1 DataMatrix read by zxing-cpp: the identifier comes separately, the payload has no separators
        // because every element is fixed-length.
        let payload = "0109506000134352" + "17201200" + "3103001250"
        #expect(PayloadParser.parse(payload) == .text)  // without the identifier it is just a number
        guard case let .gs1(gs1) = PayloadParser.parse(payload, symbologyIdentifier: "]d2") else {
            Issue.record("not GS1")
            return
        }
        #expect(gs1.expiry?.day == nil)
        #expect(gs1.expiry?.iso8601 == "2020-12")
        #expect(gs1.netWeightKilograms == 1.25)
    }

    @Test func gs1WithGroupSeparatorsAndNoIdentifier() {
        let payload = "\u{1D}0109506000134352" + "10ABC\u{1D}" + "15250630"
        guard case let .gs1(gs1) = PayloadParser.parse(payload) else {
            Issue.record("not GS1")
            return
        }
        #expect(gs1.lot == "ABC")
        #expect(gs1.bestBefore?.iso8601 == "2025-06-30")
    }

    @Test func gs1BadCheckDigitIsFlagged() {
        let content = PayloadParser.parse("(01)09506000134353(10)ABC")
        guard case let .gs1(gs1) = content else {
            Issue.record("a bad check digit must stay GS1")
            return
        }
        #expect(gs1.gtinCheckDigitValid == false)
        #expect(!gs1.checkDigitsValid)
        #expect(content.summary == "GS1: GTIN 09506000134353 (check digit BAD), lot ABC")
        #expect(content.logFields.prefix(3) == [
            .init("type", .string("gs1")),
            .init("gtin", .string("09506000134353")),
            .init("check_digits_valid", .bool(false)),
        ])
    }

    @Test(arguments: [
        "(01)0950600013435",            // GTIN one digit short
        "(01)09506000134352(17)2012",   // date cut short
        "(01)0950600013435X",           // a letter in a numeric field
        "(99",                          // cut inside the AI
        "(05)12345",                    // unassigned AI range
        "(10)ABC DEF",                  // a space is outside GS1's character set
        "]C1010950600013435",           // encoded, cut inside the fixed-length GTIN
        "4006381333931",                // an EAN-13's digits: a number, not an element string
    ])
    func malformedGS1IsText(payload: String) {
        #expect(PayloadParser.parse(payload) == .text)
    }

    @Test func gs1DateCenturyFollowsTheSlidingWindow() {
        #expect(GS1Date("991231", currentYear: 2025)?.year == 1999)
        #expect(GS1Date("741231", currentYear: 2025)?.year == 2074)
        #expect(GS1Date("751231", currentYear: 2025)?.year == 2075)
        #expect(GS1Date("761231", currentYear: 2025)?.year == 1976)
        #expect(GS1Date("201325", currentYear: 2025) == nil)
    }

    // MARK: URIs

    @Test func geoWithAndWithoutQuery() {
        #expect(PayloadParser.parse("geo:48.2082,16.3738") == .geo(GeoContent(latitude: 48.2082, longitude: 16.3738)))
        let content = PayloadParser.parse("GEO:-33.8568,151.2153,58;u=10?q=Sydney+Opera%20House")
        #expect(content == .geo(GeoContent(latitude: -33.8568, longitude: 151.2153, altitude: 58,
                                           query: "Sydney Opera House")))
        #expect(content.summary == "Location: -33.8568, 151.2153, 58.0 m (Sydney Opera House)")
    }

    @Test(arguments: ["geo:91,0", "geo:0,181", "geo:nan,0", "geo:48.2", "geo:1,2,3,4", "geo:0x10,1"])
    func malformedGeoIsText(payload: String) {
        #expect(PayloadParser.parse(payload) == .text)
    }

    @Test func smsURIAndSMSTO() {
        #expect(PayloadParser.parse("sms:+15550100,+15550101?body=Hello%20there")
            == .sms(SMSContent(numbers: ["+15550100", "+15550101"], body: "Hello there")))
        let smsto = PayloadParser.parse("SMSTO:+15550100:Running late: 10 min")
        #expect(smsto == .sms(SMSContent(numbers: ["+15550100"], body: "Running late: 10 min")))
        #expect(smsto.summary == #"SMS to +15550100: "Running late: 10 min""#)
        #expect(PayloadParser.parse("sms:") == .text)
        #expect(PayloadParser.parse("SMSTO:call me") == .text)
    }

    @Test func mailtoWithSubjectAndMATMSG() {
        let mailto = PayloadParser.parse("mailto:orders@example.com?subject=Order%204711&body=Hi&cc=boss@example.com")
        #expect(mailto == .email(EmailContent(to: ["orders@example.com"], cc: ["boss@example.com"],
                                              subject: "Order 4711", body: "Hi")))
        #expect(mailto.summary == #"E-mail: orders@example.com "Order 4711""#)
        let matmsg = PayloadParser.parse("MATMSG:TO:jane@example.com;SUB:Invoice\\; March;BODY:See attached;;")
        #expect(matmsg == .email(EmailContent(to: ["jane@example.com"], subject: "Invoice; March",
                                              body: "See attached")))
        #expect(PayloadParser.parse("jane.doe@example.co.uk") == .email(EmailContent(to: ["jane.doe@example.co.uk"])))
        #expect(PayloadParser.parse("mailto:not-an-address") == .text)
        #expect(PayloadParser.parse("MATMSG:SUB:No recipient;;") == .text)
    }

    @Test func telephone() {
        #expect(PayloadParser.parse("tel:+1-555-0100") == .phone(number: "+1-555-0100"))
        #expect(PayloadParser.parse("TEL:%2B49%2030%20123456") == .phone(number: "+49 30 123456"))
        #expect(PayloadParser.parse("tel:call me maybe") == .text)
    }

    @Test func urlVariants() {
        #expect(PayloadParser.parse("https://example.com/parcel/4711?x=1") == .url(URLContent(
            text: "https://example.com/parcel/4711?x=1", url: "https://example.com/parcel/4711?x=1",
            host: "example.com")))
        // Alphanumeric-mode QR codes carry upper-case URLs.
        #expect(PayloadParser.parse("HTTP://EXAMPLE.COM/A") == .url(URLContent(
            text: "HTTP://EXAMPLE.COM/A", url: "HTTP://EXAMPLE.COM/A", host: "example.com")))
        #expect(PayloadParser.parse("http://user:pw@[::1]:8080/") == .url(URLContent(
            text: "http://user:pw@[::1]:8080/", url: "http://user:pw@[::1]:8080/", host: "[::1]")))
        #expect(PayloadParser.parse("www.example.org/menu\n") == .url(URLContent(
            text: "www.example.org/menu", url: "https://www.example.org/menu", host: "www.example.org")))
    }

    @Test(arguments: ["https://", "http://exa mple.com", "www.", "www.example", "ftp://example.com", "example.com"])
    func nonURLsAreText(payload: String) {
        #expect(PayloadParser.parse(payload) == .text)
    }

    // MARK: Text and robustness

    @Test(arguments: ["Order 4711", "", "   \n", "4006381333931", "Hello: world; ok", "BEGIN:VTODO\nEND:VTODO"])
    func plainTextStaysText(payload: String) {
        let content = PayloadParser.parse(payload)
        #expect(content == .text)
        #expect(content.typeName == "text")
        #expect(content.logFields == [.init("type", .string("text"))])
    }

    @Test func everyPrefixOfEveryStructuredSampleParsesWithoutTrapping() {
        let samples = [
            Self.pix, Self.emvcoSpecification, Self.payNow, #"WIFI:S:a\;b;T:WPA;P:p\\;;"#,
            "BEGIN:VCARD\r\nFN:Jane\r\n Doe\r\nN:Doe;Jane\r\nEND:VCARD", "MECARD:N:A,B;TEL:1;;",
            "BEGIN:VEVENT\nSUMMARY:x\nDTSTART:20240101T000000Z\nEND:VEVENT",
            "]C1" + "0109506000134352" + "10ABC\u{1D}" + "21X", "(01)09506000134352(17)201225(10)ABC",
            "geo:1,2?q=x", "mailto:a@b.co?subject=%", "sms:+15?body=%zz", "\u{0}\u{1D}\u{FFFF}(\\;:",
        ]
        var kinds = Set<String>()
        for sample in samples {
            let scalars = Array(sample.unicodeScalars)
            for length in 0...scalars.count {
                let content = PayloadParser.parse(PayloadText.string(scalars[..<length]))
                _ = content.summary
                _ = content.logFields
                kinds.insert(content.typeName)
            }
        }
        #expect(kinds.isSuperset(of: ["text", "emvco", "wifi", "contact", "event", "gs1", "geo", "email", "sms"]))
    }

    @Test func hugeInputIsTextAndLongInputStaysLinear() {
        #expect(PayloadParser.parse(String(repeating: "A", count: PayloadParser.maximumLength + 1)) == .text)
        // Just under the cap, structured prefixes with a body that never closes: each parser walks it once.
        let body = String(repeating: "\\;(", count: 30_000)
        for prefix in ["WIFI:S:", "MECARD:N:", "BEGIN:VCARD\nFN:", "(10)", "000201", "geo:"] {
            _ = PayloadParser.parse(prefix + body)
        }
        let start = Date()
        _ = PayloadParser.parse("(01)09506000134352" + String(repeating: "(10)A", count: 15_000))
        #expect(Date().timeIntervalSince(start) < 2)
    }

    @Test func typeNamesMatchTheEventLog() {
        let expected: [(String, String)] = [
            ("https://example.com", "url"), ("mailto:a@example.com", "email"), ("tel:+15550100", "phone"),
            ("sms:+15550100", "sms"), ("geo:1,2", "geo"), ("WIFI:S:x;;", "wifi"), ("MECARD:N:x;;", "contact"),
            ("BEGIN:VEVENT\nSUMMARY:x", "event"), ("(10)ABC", "gs1"), (Self.pix, "emvco"), ("hello", "text"),
        ]
        for (payload, name) in expected {
            let content = PayloadParser.parse(payload)
            #expect(content.typeName == name, "\(payload)")
            #expect(content.logFields.first == .init("type", .string(name)))
        }
    }
}
