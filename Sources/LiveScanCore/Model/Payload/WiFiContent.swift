import Foundation

/// A Wi-Fi network to join, in the ZXing format: `WIFI:T:WPA;S:HomeNet;P:secret;H:true;;` (fields in any
/// order; `\;` `\,` `\:` `\\` `\"` escape those characters in the SSID and password).
public struct WiFiContent: Sendable, Equatable {
    /// The network name (`S`).
    public let ssid: String
    /// The authentication type as written (`T`): `WPA`, `WEP`, `SAE`, `WPA2-EAP`, ...; nil for an open network
    /// (`nopass` or no `T`).
    public let security: String?
    /// The password (`P`); nil when there is none. Shown in the event log, never in the listing.
    public let password: String?
    /// Whether the network does not broadcast its SSID (`H:true`).
    public let isHidden: Bool
    /// WPA2-Enterprise EAP method (`E`): `PEAP`, `TTLS`, ...
    public let eapMethod: String?
    /// WPA2-Enterprise identity (`I`).
    public let identity: String?
    /// WPA2-Enterprise anonymous identity (`A`).
    public let anonymousIdentity: String?
    /// WPA2-Enterprise phase-2 method (`PH2`).
    public let phase2Method: String?

    /// Creates a network from its parts; `parse` is the usual way in.
    public init(ssid: String, security: String?, password: String?, isHidden: Bool = false,
                eapMethod: String? = nil, identity: String? = nil, anonymousIdentity: String? = nil,
                phase2Method: String? = nil) {
        self.ssid = ssid
        self.security = security
        self.password = password
        self.isHidden = isHidden
        self.eapMethod = eapMethod
        self.identity = identity
        self.anonymousIdentity = anonymousIdentity
        self.phase2Method = phase2Method
    }

    /// A `WIFI:` payload with a non-empty SSID; nil for anything else. A payload cut off after its fields is
    /// accepted, since the closing `;;` carries nothing.
    static func parse(_ text: String) -> WiFiContent? {
        guard let body = PayloadText.afterPrefix(text, ["WIFI:"]) else { return nil }
        var values: [String: String] = [:]
        for field in SemicolonFields.parse(body).fields where values[field.key] == nil {
            values[field.key] = field.value
        }
        guard let ssid = values["S"], !ssid.isEmpty else { return nil }
        let isOpen = values["T"]?.lowercased() == "nopass"
        let security = isOpen ? nil : PayloadText.nonEmpty(values["T"])
        // Passwords may start or end with spaces, so unlike the other fields they are not trimmed.
        let password = isOpen ? nil : values["P"].flatMap { $0.isEmpty ? nil : $0 }
        return WiFiContent(ssid: ssid, security: security, password: password,
                           isHidden: values["H"]?.lowercased() == "true",
                           eapMethod: PayloadText.nonEmpty(values["E"]), identity: PayloadText.nonEmpty(values["I"]),
                           anonymousIdentity: PayloadText.nonEmpty(values["A"]),
                           phase2Method: PayloadText.nonEmpty(values["PH2"]))
    }

    var summaryText: String {
        var notes: [String] = []
        if let security {
            notes.append(security)
        } else if password == nil {
            notes.append("open")
        }
        if password != nil {
            notes.append("password hidden")
        }
        if isHidden {
            notes.append("hidden network")
        }
        return "Wi-Fi \"" + ssid + "\" (" + notes.joined(separator: ", ") + ")"
    }

    func addLogFields(to fields: inout LogFieldList) {
        fields.add("ssid", ssid)
        fields.add("security", security ?? "none")  // stated, not omitted: an open network is worth knowing
        fields.add("password", password)
        fields.add("hidden", isHidden)
        fields.add("eap_method", eapMethod)
        fields.add("identity", identity)
        fields.add("anonymous_identity", anonymousIdentity)
        fields.add("phase2_method", phase2Method)
    }
}
