import Foundation
import LiveScan

/// One file of an archive scan: the path to open, and the absolute path its log is named from.
struct ArchiveInput: Equatable {
    /// As found: the argument itself, or a folder's path joined with the file's name.
    let path: String
    /// `path` made absolute and without `.`/`..` components, whatever the working folder: the same file has the same
    /// log name from any folder (and on every node of a cluster that mounts it at one place). Links are not
    /// followed: a link is an input of its own, as the user named it.
    let absolutePath: String
}

/// The SOURCE arguments of an archive scan turned into its inputs: a file is one input (whatever its extension: the
/// user named it), a folder is every video and image file under it (recursively, in name order, hidden names
/// skipped), a glob (`'videos/*.mp4'`, quoted so that the shell leaves it, as Slurm scripts and argument lists too
/// long for the shell need) is the files it matches. Each image is an input of its own, with its own log. A name
/// that matches nothing is an input still: its scan fails, and says so, as any input that cannot be read.
enum ArchiveInputs {
    /// What a folder's video files end in (lower case). Images are `ImageSource.isImagePath`'s.
    static let videoExtensions: Set = ["mp4", "m4v", "mkv", "mov", "avi", "webm", "mpg", "mpeg", "ts", "mts",
                                       "m2ts", "flv", "wmv", "3gp", "ogv", "mxf", "y4m"]

    /// The inputs of `sources`, each once (by absolute path), in the order given. Throws a `UsageError` for a
    /// camera or a stream: an archive scan reads files, which end.
    static func expand(_ sources: [String], workingFolder: String = FileManager.default.currentDirectoryPath)
        throws -> [ArchiveInput]
    {
        var inputs: [ArchiveInput] = []
        var seen: Set<String> = []
        func add(_ path: String) {
            let absolute = absolutePath(path, workingFolder: workingFolder)
            if seen.insert(absolute).inserted {
                inputs.append(ArchiveInput(path: path, absolutePath: absolute))
            }
        }
        for source in sources {
            var isFolder = false
            let exists = FileNames.exists(source, isDirectory: &isFolder)
            if exists && isFolder {
                filesUnder(source).forEach(add)
                continue
            }
            if !exists && isGlob(source) {
                let matches = glob(source)
                if !matches.isEmpty {
                    matches.forEach { match in
                        var matchIsFolder = false
                        _ = FileNames.exists(match, isDirectory: &matchIsFolder)
                        matchIsFolder ? filesUnder(match).forEach(add) : add(match)
                    }
                    continue
                }
            }
            switch SourceKind.of(source) {
            case .camera, .stream:
                throw UsageError(message: "--out scans files, and \(source) is \(SourceKind.of(source).rawValue)")
            case .image, .video:
                add(source)
            }
        }
        return inputs
    }

    /// Whether a folder's file `name` is one to scan: a video or an image, by its extension.
    static func isScannable(_ name: String) -> Bool {
        let fileExtension = (name as NSString).pathExtension.lowercased()
        return videoExtensions.contains(fileExtension) || ImageSource.isImagePath(name)
    }

    /// The video and image files under `folder`, depth first, each folder's names in byte order.
    private static func filesUnder(_ folder: String) -> [String] {
        guard let names = FileNames.namesInFolder(folder) else { return [] }
        var files: [String] = []
        let inByteOrder = names.sorted {
            FileNameBytes.bytes(of: $0).lexicographicallyPrecedes(FileNameBytes.bytes(of: $1))
        }
        for name in inByteOrder where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var isFolder = false
            guard FileNames.exists(path, isDirectory: &isFolder) else { continue }
            if isFolder {
                files += filesUnder(path)
            } else if isScannable(name) {
                files.append(path)
            }
        }
        return files
    }

    private static func isGlob(_ pattern: String) -> Bool {
        pattern.contains { "*?[".contains($0) }
    }

    /// glob(3)'s matches of `pattern`, sorted as glob sorts them; none when it matches nothing.
    private static func glob(_ pattern: String) -> [String] {
        var matches = glob_t()
        defer { globfree(&matches) }
        guard FileNameBytes.withCName(pattern, { Glibc.glob($0, 0, nil, &matches) }) == 0 else { return [] }
        return (0..<Int(matches.gl_pathc)).compactMap { index in
            matches.gl_pathv[index].map { name in
                FileNameBytes.string(fromBytes: UnsafeBufferPointer(
                    start: UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self), count: strlen(name)))
            }
        }
    }

    /// `path` from `workingFolder`, its `.` and `..` components and repeated slashes resolved by name.
    static func absolutePath(_ path: String, workingFolder: String) -> String {
        let joined = path.hasPrefix("/") ? path : workingFolder + "/" + path
        var components: [Substring] = []
        for component in joined.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }
}
