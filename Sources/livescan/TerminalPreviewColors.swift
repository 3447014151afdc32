import Foundation
import LiveScan

/// An 8-bit RGB colour.
struct RGBColor: Hashable {
    var red: UInt8
    var green: UInt8
    var blue: UInt8
}

/// How the terminal is given colours: 24-bit (`ESC[38;2;R;G;Bm`), or the xterm 256-colour palette (`ESC[38;5;Nm`),
/// which every terminal that shows colour at all over SSH understands.
enum PreviewColorMode: Equatable {
    case trueColor
    case palette256

    /// 24-bit when `COLORTERM` says the terminal has it (`truecolor` or `24bit`, as such terminals announce it);
    /// else the 256 colours.
    init(environment: [String: String]) {
        let announced = environment["COLORTERM"]?.lowercased()
        self = announced == "truecolor" || announced == "24bit" ? .trueColor : .palette256
    }

    /// How far each channel of a 24-bit cell may be from the colour wanted before it is drawn again: a camera's
    /// noise changes the last bits of most cells every frame, and rewriting them all would cost a slow SSH link
    /// the whole picture each time for no visible change.
    static let tolerance = 6

    /// The SGR parameters that make `color` the foreground (`38;...`) or the background (`48;...`).
    func parameters(_ color: RGBColor, background: Bool) -> String {
        var parameters = ""
        append(color, background: background, to: &parameters)
        return parameters
    }

    /// Appends `parameters(color, background:)` to `output` piece by piece: this runs for most cells of every
    /// picture, and a string made for each would be most of the preview's work.
    func append(_ color: RGBColor, background: Bool, to output: inout String) {
        output += background ? "48" : "38"
        switch self {
        case .trueColor:
            output += ";2;"
            output += String(color.red)
            output += ";"
            output += String(color.green)
            output += ";"
            output += String(color.blue)
        case .palette256:
            output += ";5;"
            output += String(Self.paletteIndex(color))
        }
    }

    /// Whether `first` and `second` are set by the same parameters: the same colour, or the same palette entry.
    func isSame(_ first: RGBColor?, as second: RGBColor?) -> Bool {
        guard let first, let second else { return first == nil && second == nil }
        return self == .trueColor ? first == second : Self.paletteIndex(first) == Self.paletteIndex(second)
    }

    /// Whether a cell drawn in `drawn` still shows `wanted`: the same palette entry, or every channel within
    /// `tolerance`.
    func shows(_ wanted: RGBColor?, as drawn: RGBColor?) -> Bool {
        guard let wanted, let drawn else { return wanted == nil && drawn == nil }
        switch self {
        case .trueColor:
            return abs(Int(wanted.red) - Int(drawn.red)) <= Self.tolerance
                && abs(Int(wanted.green) - Int(drawn.green)) <= Self.tolerance
                && abs(Int(wanted.blue) - Int(drawn.blue)) <= Self.tolerance
        case .palette256:
            return Self.paletteIndex(wanted) == Self.paletteIndex(drawn)
        }
    }

    /// The xterm palette entry nearest `color`: the 6x6x6 cube (16...231, channel levels 0, 95, 135, 175, 215,
    /// 255) or the grey ramp (232...255, 8 to 238 in steps of 10), whichever is nearer. Entries 0...15 are left
    /// out: each terminal's theme sets them.
    static func paletteIndex(_ color: RGBColor) -> Int {
        // Plain integers, no arrays: this runs for every cell of every picture.
        func level(_ value: Int) -> Int { value < 48 ? 0 : value < 115 ? 1 : (value - 35) / 40 }
        func shade(_ level: Int) -> Int { level == 0 ? 0 : 55 + 40 * level }
        func square(_ value: Int) -> Int { value * value }
        let (red, green, blue) = (Int(color.red), Int(color.green), Int(color.blue))
        let (redLevel, greenLevel, blueLevel) = (level(red), level(green), level(blue))
        let cubeDistance = square(red - shade(redLevel)) + square(green - shade(greenLevel))
            + square(blue - shade(blueLevel))
        let step = min(max(((red + green + blue) / 3 - 3) / 10, 0), 23)
        let grey = 8 + 10 * step
        let greyDistance = square(red - grey) + square(green - grey) + square(blue - grey)
        return greyDistance < cubeDistance ? 232 + step : 16 + 36 * redLevel + 6 * greenLevel + blueLevel
    }
}
