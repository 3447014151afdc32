import Foundation

/// The outputs a scan writes (`--events`, `--annotate`) must never be one of its inputs, nor each other:
/// `--events t.mp4` with the source forgotten, or `--annotate c.mp4 c.mp4`, would overwrite the very file
/// being read. Files are compared by identity (device and inode, through any link or `./` spelling), and
/// outputs that do not exist yet by their absolute path.
enum OutputConflicts {
    /// Throws a usage error naming the first output that is an input or another output.
    static func check(_ options: ScanOptions) throws {
        var outputs: [(option: String, path: String)] = []
        if let events = options.eventsPath, events != "-" {
            outputs.append(("--events", events))
        }
        if let annotate = options.annotatePath {
            outputs.append(("--annotate", annotate))
        }
        for (index, output) in outputs.enumerated() {
            for source in options.sources where isSameFile(output.path, source) {
                throw UsageError(message: "\(output.option) \(output.path) is the SOURCE being scanned; "
                    + "give another output file")
            }
            for other in outputs[..<index] where isSameFile(output.path, other.path) {
                throw UsageError(message: "\(output.option) and \(other.option) name the same file, \(output.path)")
            }
        }
    }

    static func isSameFile(_ first: String, _ second: String) -> Bool {
        var a = stat(), b = stat()
        if stat(first, &a) == 0, stat(second, &b) == 0 {
            return a.st_dev == b.st_dev && a.st_ino == b.st_ino
        }
        return absolute(first) == absolute(second)
    }

    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
