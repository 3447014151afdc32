import Foundation
import LiveScan

/// `livescan scan --out DIR SOURCE...`: what an archive scan was asked for. Every input gets a scan of its own, run
/// by `ArchiveScan` as a child `livescan scan` with `scanArguments`; the options that shape what is printed, or that
/// name one output file, have no meaning there and are refused.
struct ArchiveSettings {
    /// `--out`: the folder of event logs.
    let folder: String
    /// `--jobs`: inputs scanned at once; nil for `ArchiveJobs.defaultCount`.
    let jobs: Int?
    /// `--redo`: scan inputs whose complete log is already there.
    let redo: Bool
    /// The SOURCE arguments as given: files, folders, globs.
    let sources: [String]
    /// The scan options given, to be handed to each input's scan (`--types=text`, `--quality=fast`).
    let scanArguments: [String]
    /// `-q`: no progress; errors are still reported.
    let quiet: Bool

    /// The options of archive scans alone.
    static let ownOptions: Set = ["--out", "--jobs", "--redo"]
    /// Options each input's scan is given anyway (`--quiet`, `--force`), or that the parent alone honours.
    private static let setByArchive: Set = ["--quiet", "--force"]
    /// Options that mean nothing in an archive scan, and why.
    private static let refused: [String: String] = [
        "--events": "each input's log is written in DIR",
        "--annotate": "it draws one scan",
        "--open": "an archive scan shows no listing",
        "--raw": "an archive scan prints no findings (livescan report DIR reads them)",
        "--changes": "an archive scan prints no findings (livescan report DIR reads them)",
        "--names": "an archive scan prints no findings (livescan report DIR reads them)",
        "--no-listing": "an archive scan shows no listing",
        "--serve": "it shows one scan",
        "--serve-token": "it goes with --serve, which shows one scan",
    ]

    /// The settings of an archive scan, nil when `--out` is not given (then `--jobs` and `--redo` are errors).
    init?(_ parsed: CommandLineArguments) throws {
        guard let folder = parsed.value("--out") else {
            for name in ["--jobs", "--redo"] where parsed.given.contains(name) {
                throw UsageError(message: "\(name) applies with --out DIR only")
            }
            return nil
        }
        guard !folder.isEmpty, !FileNameBytes.carriesBytes(folder) else {
            throw UsageError(message: "--out \(folder): a folder name must be valid UTF-8 and not empty")
        }
        for name in parsed.given {
            if let reason = Self.refused[name] {
                throw UsageError(message: "\(name) does not go with --out: \(reason)")
            }
        }
        guard !parsed.positional.isEmpty else {
            throw UsageError(message: "--out needs the files to scan: give video or image files, folders or globs")
        }
        self.folder = folder
        jobs = try parsed.number("--jobs", takes: "a whole number of scans at once, 1 or more") { $0 >= 1 }
        redo = parsed.has("--redo")
        quiet = parsed.has("--quiet")
        sources = parsed.positional
        var scanArguments: [String] = []
        for name in parsed.given where !Self.ownOptions.contains(name) && !Self.setByArchive.contains(name) {
            let argument = parsed.value(name).map { "\(name)=\($0)" } ?? name
            if !scanArguments.contains(argument) {
                scanArguments.append(argument)
            }
        }
        self.scanArguments = scanArguments
    }
}
