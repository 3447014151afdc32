import Foundation

/// Frames from several image arguments (`livescan scan *.png`), files or folders, one after another: one scan, as
/// of one folder holding them all. Each argument is read by its own `ImageSource`, opened only when the one before
/// has ended (one decoded image held at a time, however many arguments); frames are numbered across them all and
/// keep their file (`Frame.file`). An argument that cannot be opened is skipped and listed in `unreadableImages`,
/// as a folder's unreadable image is.
public final class ImageFilesSource: FrameSource, @unchecked Sendable {
    /// Named after the folder that holds every argument (`SourceInfo.name`); the size is the first readable image's.
    public let info: SourceInfo
    /// The arguments, in the order given.
    public let paths: [String]
    /// Arguments that could not be opened and images of them that could not be decoded, in the order met.
    public private(set) var unreadableImages: [ScanError] = []
    private let maxPixels: Int
    private var current: ImageSource?
    private var nextPath = 0
    private var framesMade = 0

    /// Opens the arguments in order until one opens. Throws when none does, with every reason.
    public init(paths: [String], maxPixels: Int = ImageSource.defaultMaxPixels) throws {
        self.paths = paths
        self.maxPixels = maxPixels
        let name = Self.commonFolder(of: paths)
        guard let first = Self.open(paths, from: &nextPath, maxPixels: maxPixels, failures: &unreadableImages) else {
            throw ScanError.sourceUnavailable(
                source: name, reason: "none of the \(paths.count) images given is readable: "
                    + unreadableImages.map(\.description).joined(separator: "; "))
        }
        current = first
        info = SourceInfo(name: name, width: first.info.width, height: first.info.height, framesPerSecond: 0,
                          frameCount: nil)
    }

    public func nextFrame() throws -> Frame? {
        while let source = current {
            if let frame = try source.nextFrame() {
                defer { framesMade += 1 }
                return Frame(image: frame.image, index: framesMade, time: Double(framesMade), file: frame.file)
            }
            unreadableImages += source.unreadableImages
            current = Self.open(paths, from: &nextPath, maxPixels: maxPixels, failures: &unreadableImages)
        }
        return nil
    }

    /// The next argument from `index` on that opens, `index` moved past it; the failures of those before it added
    /// to `failures`.
    private static func open(_ paths: [String], from index: inout Int, maxPixels: Int,
                             failures: inout [ScanError]) -> ImageSource? {
        while index < paths.count {
            let path = paths[index]
            index += 1
            do {
                return try ImageSource(path: path, maxPixels: maxPixels)
            } catch {
                failures.append(error as? ScanError ?? .sourceUnavailable(source: path, reason: "\(error)"))
            }
        }
        return nil
    }

    /// The deepest folder holding every image, as the paths spell it: a file's folder, a folder itself (`labels`
    /// for `labels/a.png labels/b.png`, `.` for `a.png b.png` or `labels more`). Relative paths are made absolute
    /// when absolute ones are given too.
    static func commonFolder(of paths: [String]) -> String {
        let mixed = paths.contains { $0.hasPrefix("/") } && paths.contains { !$0.hasPrefix("/") }
        let folders = paths.map { path -> [String] in
            let spelled = mixed ? URL(fileURLWithPath: path).path : path
            var isFolder = false
            let components = spelled.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let holding = FileNames.exists(path, isDirectory: &isFolder) && isFolder
                ? components : Array(components.dropLast())
            return holding.filter { !$0.isEmpty && $0 != "." }
        }
        var common = folders.first ?? []
        for folder in folders.dropFirst() {
            common = Array(zip(common, folder).prefix { $0 == $1 }.map(\.0))
        }
        let absolute = mixed || paths.first?.hasPrefix("/") == true
        let joined = common.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
