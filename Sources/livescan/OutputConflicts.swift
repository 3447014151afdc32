import Foundation
import LiveScan

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
    /// nothing in a folder being scanned should be written over), the frames of an image-sequence pattern
    /// (`seq/s_%04d.png`) as the video source numbers them (`VideoSource.sequenceFiles`). Streams and cameras read
    /// no file.
    static func inputFiles(of source: String) -> [String] {
        switch SourceKind.of(source) {
        case .stream, .camera:
            return []
        case .image, .video:
            break
        }
        var isDirectory = false
        if FileNames.exists(source, isDirectory: &isDirectory), isDirectory {
            let folder = URL(fileURLWithPath: source)
            return (FileNames.namesInFolder(source) ?? []).map { folder.appendingPathComponent($0).path }
        }
        // A sequence whose first frame is missing reads nothing; opening it says so.
        return (try? VideoSource.sequenceFiles(source)) ?? []
    }

    static func isSameFile(_ first: String, _ second: String) -> Bool {
        if let a = FileNames.status(first), let b = FileNames.status(second) {
            return a.st_dev == b.st_dev && a.st_ino == b.st_ino
        }
        return absolute(first) == absolute(second)
    }

    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

