import Foundation

/// The outputs a scan writes (`--events`, `--annotate`) must never be one of its inputs, nor each other:
/// `--events t.mp4` with the source forgotten, `--annotate c.mp4 c.mp4`, or `--annotate imgs/q0.png imgs/`
/// would overwrite the very file being read. The inputs are the files a SOURCE stands for: itself, the images of
/// a folder, the frames of an image-sequence pattern. `--force` does not lift this: it replaces a file that is
/// not an event log, never an input. Files are compared by identity (device and inode, through any link or `./`
/// spelling), and outputs that do not exist yet by their absolute path.
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
            for source in options.sources {
                if isSameFile(output.path, source) {
                    throw UsageError(message: "\(output.option) \(output.path) is the SOURCE being scanned; "
                        + "give another output file")
                }
                if inputFiles(of: source).contains(where: { isSameFile(output.path, $0) }) {
                    throw UsageError(message: "\(output.option) \(output.path) is one of the files the SOURCE "
                        + "\(source) reads; give another output file")
                }
            }
            for other in outputs[..<index] where isSameFile(output.path, other.path) {
                throw UsageError(message: "\(output.option) and \(other.option) name the same file, \(output.path)")
            }
        }
    }

    /// The files `source` reads beyond itself: every entry of a folder (an image among them is read, and
    /// nothing in a folder being scanned should be written over), the files in the folder of an image-sequence
    /// pattern (`seq/s_%04d.png`) whose names the pattern matches. Streams and cameras read no file.
    static func inputFiles(of source: String) -> [String] {
        switch SourceKind.of(source) {
        case .stream, .camera:
            return []
        case .image, .video:
            break
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory), isDirectory.boolValue {
            let folder = URL(fileURLWithPath: source)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: source)) ?? []
            return names.map { folder.appendingPathComponent($0).path }
        }
        guard let frameName = ImageSequencePattern(source) else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: frameName.folder)) ?? []
        let folder = URL(fileURLWithPath: frameName.folder)
        return names.filter(frameName.matches).map { folder.appendingPathComponent($0).path }
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

/// An image-sequence pattern as FFmpeg's image2 demuxer reads it: a file name holding one printf-style number
/// (`%d`, `%04d`) in a folder without one; `%%` is a literal `%`.
struct ImageSequencePattern {
    /// The folder the frames are in.
    let folder: String
    private let prefix: String
    private let suffix: String

    init?(_ pattern: String) {
        let url = URL(fileURLWithPath: pattern)
        let name = url.lastPathComponent
        folder = url.deletingLastPathComponent().path
        var prefix = "", suffix = "", sawNumber = false
        var characters = name.makeIterator()
        while let character = characters.next() {
            guard character == "%" else {
                if sawNumber { suffix.append(character) } else { prefix.append(character) }
                continue
            }
            var directive = ""
            while let next = characters.next() {
                directive.append(next)
                if !next.isNumber { break }
            }
            if directive == "%" {
                if sawNumber { suffix.append("%") } else { prefix.append("%") }
            } else if directive.last == "d", !sawNumber, directive.dropLast().allSatisfy(\.isNumber) {
                sawNumber = true
            } else {
                return nil
            }
        }
        guard sawNumber else { return nil }
        self.prefix = prefix
        self.suffix = suffix
    }

    /// Whether the file called `name` in `folder` is one of the sequence's frames.
    func matches(_ name: String) -> Bool {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count else {
            return false
        }
        let number = name.dropFirst(prefix.count).dropLast(suffix.count)
        return number.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
