import Foundation
import LiveScan

/// One option of `livescan scan`. Every option is declared once, in `ScanOption.all`: the parser, `--help`,
/// the usage line and the README's table are made from it (a test holds the README to it).
struct ScanOption {
    /// The option's name first, then its aliases (`--once`, `--oneshot`, `-1`).
    let names: [String]
    /// What its value is called (`LIST`), nil for a switch.
    let value: String?
    /// Its lines in `--help`, each at most 58 characters (they follow a 21-character column).
    let help: [String]
    /// Its row in docs/command.md's table: what it does, in full (Markdown).
    let documented: String
    /// The sources it means something for; an option given for none of the scan's sources is a usage error.
    var appliesTo: Set<SourceKind> = Set(SourceKind.allCases)

    var name: String { names[0] }

    /// `--types LIST`, `--once, --oneshot, -1`.
    var syntax: String {
        names.joined(separator: ", ") + (value.map { " \($0)" } ?? "")
    }

    /// What `--types` is when it is not given: every symbology read by default, and text. The parser, `--help` and
    /// the README take it from here.
    static let defaultTypes = ["barcodes", "text"]

    static var typeNames: [String] { Symbology.allCases.map(\.rawValue) + ["barcodes", "text"] }

    /// The symbologies `barcodes` leaves out, which are read only when named (`Symbology.isReadByDefault`).
    static var optInNames: [String] { Symbology.allCases.filter { !$0.isReadByDefault }.map(\.rawValue) }

    static let all: [ScanOption] = [
        ScanOption(
            names: ["--types"], value: "LIST",
            help: ["what to look for, comma-separated (default: \(defaultTypes.joined(separator: ","))):"]
                + wrapped(typeNames.joined(separator: ", ") + " (barcodes: every symbology but "
                    + optInNames.joined(separator: " and ") + ", read only when named)"),
            documented: "comma-separated: " + typeNames.map { "`\($0)`" }.joined(separator: ", ")
                + "; `barcodes` (also `all-barcodes`, as the start line logs it) is every symbology but "
                + optInNames.map { "`\($0)`" }.joined(separator: " and ") + ", which are read only when named "
                + "(`barcodes,\(optInNames[0])` is the others and `\(optInNames[0])`); "
                + "default: `\(defaultTypes.joined(separator: ","))`. "
                + "`itf14` is ITF-14: an ITF of exactly 14 digits whose last is the GS1 mod-10 check digit (an "
                + "ITF read that is not one is dropped; `itf` reads every ITF). Apple's Vision names are accepted "
                + "too, in any case (`microQR`, `dataMatrix`, `gs1DataBar`, `I2of5`)"),
        ScanOption(
            names: ["--languages"], value: "LIST",
            help: ["text languages, comma-separated, as Tesseract names them",
                   "(eng, deu, chi_sim; eng+deu) or as BCP-47 tags",
                   "(en-US, de, zh-Hans; default: eng)"],
            documented: "text languages, comma-separated: Tesseract's names (`eng`, `deu`, `chi_sim`; `eng+deu` as "
                + "Tesseract users type it) or BCP-47 tags as VisionKit takes them (`en-US`, `ja-JP`, `zh-Hans`, "
                + "`de`). Default `eng`; a missing one names the Debian package that installs it "
                + "(`tesseract-ocr-jpn`), and one Debian has no package for is said to be unknown (`english`, "
                + "`xx-YY`)"),
        ScanOption(
            names: ["--quality"], value: "LEVEL", help: ["fast, balanced (default) or accurate"],
            documented: "`fast`, `balanced` (default), `accurate` — see [pipeline.md](pipeline.md#quality-levels)"),
        ScanOption(
            names: ["--roi"], value: "X,Y,W,H",
            help: ["only items whose centre lies in this rectangle: pixels, or",
                   "fractions of the frame when all four are at most 1"],
            documented: "the region of interest (VisionKit's `regionOfInterest`): only items whose centre lies in it "
                + "are recognised, `--single` picks the item nearest its centre, the listing names it and "
                + "`--annotate` outlines it. Pixels, or fractions of the frame when all four numbers are at most 1 "
                + "(`0.25,0.25,0.5,0.5` is the middle quarter); the start line's `config` gives it in pixels"),
        ScanOption(
            names: ["--single"], value: nil, help: ["report one item at a time, the one nearest the centre"],
            documented: "one item at a time: the one nearest the centre, kept until it leaves"),
        ScanOption(
            names: ["--raw"], value: nil,
            help: ["print payloads and transcripts only; their exact bytes", "when standard output is not a terminal"],
            documented: "payloads and transcripts only (with `--changes`: `+ 3f2a9c1d https://...`). When standard output "
                + "is not a terminal, their exact bytes, as zbarimg's `--raw` writes them: a vCard's newlines as "
                + "newlines, a path's backslashes single (a payload may then span lines); on a terminal they are "
                + "escaped as all output is (`\\n`, `\\e`), since a payload may hold terminal escapes"),
        ScanOption(
            names: ["--changes"], value: nil, help: ["one line per event instead: + added, ~ updated, - removed"],
            documented: "one line per event instead: `+ 3f2a9c1d qr https://...` added, `~` updated, `-` removed"),
        ScanOption(
            names: ["--once", "--oneshot", "-1"], value: nil,
            help: ["print the first item found and stop (in a video, a text", "line once it has settled)"],
            documented: "print the first item found and stop (`--oneshot` and `-1` as zbarcam spells it): a code as soon "
                + "as it is read, a video's text line once it has settled (as line output prints it: when it leaves "
                + "or the scan ends, not its first piece as it enters the frame)"),
        ScanOption(
            names: ["--quiet", "-q"], value: nil,
            help: ["print nothing; the exit status says whether anything", "was found"],
            documented: "print nothing (zbarimg's `-q`): the exit status says whether anything was found; `--events` "
                + "still writes the log"),
        ScanOption(
            names: ["--open"], value: nil, help: ["in the listing, Enter opens URLs with xdg-open"],
            documented: "in the listing, Enter opens a URL with `xdg-open`", appliesTo: [.video, .camera, .stream]),
        ScanOption(
            names: ["--preview"], value: nil,
            help: ["in the listing, draw the picture above the items in",
                   "colour half blocks, each item outlined with its id"],
            documented: "in the live listing, draw the picture the scanner sees above the items, for a terminal with no "
                + "display (over SSH): Unicode half blocks (`▀`, two pixels a character cell) in 24-bit colour when "
                + "`COLORTERM` is `truecolor` or `24bit`, else in xterm's 256 colours; every item outlined in "
                + "`--annotate`'s colours (barcodes green, text orange) with its short id beside it, `--roi` in light "
                + "blue. It keeps the frame's shape, follows terminal resizes and leaves the listing 13 lines (8 "
                + "rows of items); it is taken from the newest frame at most 10 times a second, downscaled by OpenCV, "
                + "and only the cells that changed are redrawn. Off, the listing's footer saying why, under `NO_COLOR` "
                + "and on a terminal smaller than 40x20. Where there is no listing (standard output not a terminal, "
                + "`TERM=dumb`) it does nothing, as the listing itself, so a script may pass it always; with an option "
                + "that turns the listing off (`--no-listing`, `--raw`, `--once`, `--changes`, `-q`, `--events -`) "
                + "or with `--out` it is a usage error",
            appliesTo: [.video, .camera, .stream]),
        ScanOption(
            names: ["--no-listing"], value: nil, help: ["print lines even when standard output is a terminal"],
            documented: "line output even when standard output is a terminal"),
        ScanOption(
            names: ["--names"], value: nil, help: ["start each line with the file it was found in"],
            documented: "start each line with the file it was found in, `labels/1.png: qr:https://...` (with `--raw`, "
                + "`labels/1.png: https://...`): an image's own file, or the video's, camera's or stream's name"),
        ScanOption(
            names: ["--annotate"], value: "OUT",
            help: ["write the frames with highlighted items to OUT (.mp4,",
                   ".mkv, .mov, .avi), or the last frame for an image name", "(.png, .jpg, ...)"],
            documented: "write the video with every item's quad, short id and label drawn, barcodes green and text orange "
                + "(`.mp4`/`.mkv`/`.mov` H.264, `.avi` MJPEG); an image name (`.png`, `.jpg`, `.jpeg`, `.bmp`, `.tif`, "
                + "`.tiff`, `.webp`) writes the last frame; another extension is refused before scanning. Written "
                + "under a hidden name beside `OUT` and renamed when done, so `OUT` is replaced only by a finished "
                + "file; refused when it is the source. Frames of a stream that changes resolution are fitted into the "
                + "first size. Several images and folders of images are one scan (a video of them all, or the last "
                + "image); with a video, camera or stream among several SOURCEs it is refused"),
        ScanOption(
            names: ["--serve"], value: "[HOST:]PORT",
            help: ["serve the live view while scanning: the picture with",
                   "its items, the event log as it is written (default host",
                   "127.0.0.1; port 0 picks a free one)"],
            documented: "serve the live view over HTTP while scanning ([live-view.md](live-view.md)): `/` a page with the "
                + "live picture, every item's quad, short id and label drawn over it, the list of items and the "
                + "selected item's value and actions (a click is VisionKit's tap, logged as a `tap` event); `/events` "
                + "the event log as it is written, as Server-Sent Events; `/items` the current items as JSON; "
                + "`/frame.jpg` the latest picture. GET only. The host defaults to `127.0.0.1` (`[::1]:8080` for IPv6); "
                + "any other than loopback needs `--serve-token`. Port 0 picks a free port; the address is printed on "
                + "standard error. A port in use is a usage error. The scan never waits for a viewer",
            appliesTo: [.video, .camera, .stream]),
        ScanOption(
            names: ["--serve-token"], value: "TOKEN",
            help: ["with --serve: ask every request for TOKEN (?token=);", "needed for a host other than loopback"],
            documented: "with `--serve`: every request must carry `TOKEN`, as `?token=TOKEN` (the page's own requests "
                + "do, when it was opened with it) or `Authorization: Bearer TOKEN`; refused (401) otherwise. Needed "
                + "when `--serve` names a host other than loopback",
            appliesTo: [.video, .camera, .stream]),
        ScanOption(
            names: ["--every"], value: "N", help: ["video files: scan every N-th frame only"],
            documented: "video files: scan every N-th frame only (frame numbers in the log stay the file's)",
            appliesTo: [.video]),
        ScanOption(
            names: ["--realtime"], value: nil,
            help: ["video files: play at media speed, dropping frames the scan",
                   "is too slow for, as a live source would"],
            documented: "video files: play at media speed, dropping (and counting) frames the scan is too slow for, as "
                + "a live source would", appliesTo: [.video]),
        ScanOption(
            names: ["--size"], value: "WxH", help: ["cameras: the picture size to ask for, e.g. 1280x720"],
            documented: "cameras: the picture size to ask for", appliesTo: [.camera]),
        ScanOption(
            names: ["--fps"], value: "N", help: ["cameras: the frame rate to ask for"],
            documented: "cameras: the frame rate to ask for", appliesTo: [.camera]),
        ScanOption(
            names: ["--timeout"], value: "SECONDS",
            help: ["streams: give up opening or waiting for a frame", "(default 5)"],
            documented: "streams: give up opening, or waiting for a frame, after this long (default 5)",
            appliesTo: [.stream]),
        ScanOption(
            names: ["--reconnect"], value: nil,
            help: ["cameras and streams: when the source stops, reopen it with",
                   "growing pauses for up to 30 s, keeping the items' ids"],
            documented: "cameras and streams: when the source stops, reopen it with growing pauses for up to 30 s; "
                + "items still in view afterwards keep their ids. Each reopening is a `Note:` line on stderr (not "
                + "with `-q` or under the listing) and a `reconnect` line in the event log",
            appliesTo: [.camera, .stream]),
        ScanOption(
            names: ["--events"], value: "PATH",
            help: ["write the JSON Lines event log to PATH (- for standard", "output)"],
            documented: "write the event log (below) to `PATH`; `-` for standard output. Opened only once the source "
                + "has opened and emptied only at its first line (a source that fails to open, or a scan that fails to "
                + "start, leaves an earlier log as it was), under an exclusive lock (a "
                + "second scan onto the same log fails with one error line); refused when `PATH` is the source or "
                + "`--annotate`'s file, or an existing file that is not an event log (`--force` replaces it). Several "
                + "images and folders of images make one log (one `start` line, each change naming its `file`, one "
                + "`end` line); with a video, camera or stream among several SOURCEs it is refused: each has frame "
                + "numbers and media times of its own, which one log cannot keep apart"),
        ScanOption(
            names: ["--force"], value: nil, help: ["let --events replace a file that is not an event log"],
            documented: "let `--events` replace a file that is not an event log"),
        ScanOption(
            names: ["--max-pixels"], value: "N",
            help: ["refuse an image or video frame of more pixels, before",
                   "decoding where its header says (default 10^8)"],
            documented: "refuse, before decoding, an image whose header announces more than N pixels (default "
                + "\(ImageSource.defaultMaxPixels)), and a video or stream whose container does; a frame found "
                + "larger later stops the scan (exit 1), and a frame of an image sequence is skipped as unreadable",
            appliesTo: [.image, .video, .stream]),
        ScanOption(
            names: ["--tracker"], value: "SETTINGS",
            help: ["tracker knobs, e.g. grace_period=1,text_confirmations=3", "(see docs/tracking.md)"],
            documented: "tracker knobs as `name=value` pairs, e.g. `grace_period=1,text_confirmations=3` (names as in "
                + "the start line's `config.tracker`; [tracking.md](tracking.md))"),
        ScanOption(
            names: ["--out"], value: "DIR",
            help: ["archive scan: one event log per input file in DIR", "(folders and globs expanded; see docs/archives.md)"],
            documented: "archive scan: one event log per input in `DIR` (made if missing), each named from its input's "
                + "path and renamed into place only when its scan ended well; SOURCEs are files, folders (every "
                + "video and image under them) and globs. Inputs whose complete log is newer than the input are "
                + "skipped; failures go to `DIR/failures.jsonl`. See [archives.md](archives.md)"),
        ScanOption(
            names: ["--jobs"], value: "N",
            help: ["with --out: scan N inputs at once (default: one per", "core, one per two at accurate)"],
            documented: "with `--out`: scan N inputs at once, each in a `livescan scan` process of its own (default: one "
                + "per core, one per two cores at `accurate`, at most one per 512 MB of memory)"),
        ScanOption(
            names: ["--redo"], value: nil, help: ["with --out: scan inputs again whose log is complete"],
            documented: "with `--out`: scan again the inputs whose complete log is already in `DIR`"),
    ]

    /// `text` in lines of at most 58 characters, broken at spaces.
    static func wrapped(_ text: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > 58 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return line.isEmpty ? lines : lines + [line]
    }

    /// The option called `name` (or by one of its aliases).
    static func named(_ name: String) -> ScanOption? {
        all.first { $0.names.contains(name) }
    }

    /// `Usage: livescan scan [--types LIST] ... [SOURCE...]`, every option in it.
    static var usageLine: String {
        "Usage: livescan scan " + all.map { "[\($0.name)\($0.value.map { " \($0)" } ?? "")]" }.joined(separator: " ")
            + " [SOURCE...]"
    }

    /// The options section of `--help`.
    static var helpLines: [String] {
        var lines: [String] = []
        for option in all + [ScanOption(names: ["-h", "--help"], value: nil, help: ["show this help"], documented: "")] {
            let column = "  " + option.syntax
            let first = column.count < 21 ? column.padding(toLength: 21, withPad: " ", startingAt: 0) + option.help[0]
                : column
            lines.append(first)
            let rest = column.count < 21 ? Array(option.help.dropFirst()) : option.help
            lines += rest.map { String(repeating: " ", count: 21) + $0 }
        }
        return lines
    }

    /// docs/command.md's options table, row by row (the README's shorter one points there).
    static var documentedTable: [String] {
        ["| option | meaning |", "|---|---|"]
            + all.map { option in
                "| " + option.names.map { "`\($0)\(option.value.map { " \($0)" } ?? "")`" }.joined(separator: ", ")
                    + " | \(option.documented) |"
            }
            + ["| `-h`, `--help`, `--version` | |"]
    }
}
