import Foundation

/// Where `make setup` puts the learned models (`scripts/fetch-models.sh`, models/README.md), and how LiveScan
/// finds them.
public enum ModelFiles {
    /// The path of the model file `fileName`: `explicitPath` if given; else the first that exists of
    /// `$LIVESCAN_MODELS/<fileName>`, `models/<fileName>` in the current folder, and `models/<fileName>` beside
    /// the running executable or in one of its parent folders (a build in `.build/release` finds the checkout's
    /// `models/`). Throws `ScanError.modelMissing`, saying `what` is missing and naming `make setup`, when none does.
    public static func locate(_ fileName: String, describedAs what: String, explicitPath: String? = nil) throws
        -> String
    {
        let files = FileManager.default
        if let explicitPath {
            guard files.fileExists(atPath: explicitPath) else {
                throw ScanError.modelMissing("\(what) \(explicitPath) is not installed; run `make setup` to fetch it")
            }
            return explicitPath
        }
        let candidates = searchedPaths(for: fileName)
        if let found = candidates.first(where: { files.fileExists(atPath: $0) }) {
            return found
        }
        throw ScanError.modelMissing("\(what) \(fileName) is not installed (looked for "
            + "\(candidates.joined(separator: ", "))); run `make setup` in the LiveScan checkout to fetch it")
    }

    static func searchedPaths(for fileName: String) -> [String] {
        var paths: [String] = []
        if let folder = ProcessInfo.processInfo.environment["LIVESCAN_MODELS"], !folder.isEmpty {
            paths.append(URL(fileURLWithPath: folder).appendingPathComponent(fileName).path)
        }
        paths.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("models").appendingPathComponent(fileName).path)
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            paths.append(folder.appendingPathComponent("models").appendingPathComponent(fileName).path)
            folder.deleteLastPathComponent()
        }
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted }
    }
}
