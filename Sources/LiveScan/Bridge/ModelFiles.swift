import Foundation

/// Where the learned models are looked for (`make setup` fetches them into the checkout's `models/`, `make install`
/// copies them to `PREFIX/share/livescan/models`; models/README.md). Only text reading needs them: a scan for
/// barcodes alone never looks.
public enum ModelFiles {
    /// The folders searched, in order, each once (the README and the missing-model error name them so):
    /// 1. `$LIVESCAN_MODELS`, when set;
    /// 2. `models/` beside the running executable (a binary copied with its models);
    /// 3. `../share/livescan/models` beside it (a prefix install: `PREFIX/bin/livescan` by `make install`);
    /// 4. the checkout's `models/`, when the executable was built in that checkout's `.build` (`make setup` puts
    ///    them there; tests and `.build/release/livescan` find them so);
    /// 5. `livescan/models` in `$XDG_DATA_HOME` (default `~/.local/share`) and in each of `$XDG_DATA_DIRS` (default
    ///    `/usr/local/share:/usr/share`): where `make install` puts them for every program, an app that uses the
    ///    library included.
    /// The executable is `/proc/self/exe`, its links resolved. The current folder is not searched: a folder being
    /// scanned does not choose the networks that read it.
    public static var searchedFolders: [String] {
        searchedFolders(environment: ProcessInfo.processInfo.environment,
                        executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath())
    }

    /// The path of the model file `fileName`: `explicitPath` if given; else the first `searchedFolders` that holds
    /// it. Throws `ScanError.modelMissing` when none does, saying `what` is missing, where it looked and how to get
    /// it, in one line.
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
        let folders = searchedFolders
        let candidates = folders.map { URL(fileURLWithPath: $0).appendingPathComponent(fileName).path }
        if let found = candidates.first(where: { files.fileExists(atPath: $0) }) {
            return found
        }
        let given = ProcessInfo.processInfo.environment["LIVESCAN_MODELS", default: ""]
        let looked = given.isEmpty ? "LIVESCAN_MODELS is not set and none of \(folders.joined(separator: ", "))"
            : "none of LIVESCAN_MODELS=\(given), \(folders.dropFirst().joined(separator: ", "))"
        throw ScanError.modelMissing("\(what) \(fileName) is not installed: \(looked) holds it; run `make setup` "
            + "in a LiveScan checkout, then `make install` there or set LIVESCAN_MODELS to its models folder")
    }

    static func searchedFolders(environment: [String: String], executable: URL) -> [String] {
        var folders: [String] = []
        if let folder = environment["LIVESCAN_MODELS"], !folder.isEmpty {
            folders.append(URL(fileURLWithPath: folder).standardizedFileURL.path)
        }
        let beside = executable.deletingLastPathComponent()
        folders.append(beside.appendingPathComponent("models").path)
        folders.append(beside.deletingLastPathComponent().appendingPathComponent("share/livescan/models").path)
        // SwiftPM builds into `<checkout>/.build/<triple>/<configuration>/`: the folder holding `.build` is the
        // package the executable was built from.
        var folder = beside
        while folder.path != "/" {
            if folder.lastPathComponent == ".build" {
                folders.append(folder.deletingLastPathComponent().appendingPathComponent("models").path)
                break
            }
            folder.deleteLastPathComponent()
        }
        let home = FileManager.default.homeDirectoryForCurrentUser
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? home.appendingPathComponent(".local/share").path
        let dataFolders = (environment["XDG_DATA_DIRS"].map { $0.split(separator: ":").map(String.init) } ?? [])
            .filter { $0.hasPrefix("/") }
        for data in [dataHome] + (dataFolders.isEmpty ? ["/usr/local/share", "/usr/share"] : dataFolders) {
            folders.append(URL(fileURLWithPath: data).appendingPathComponent("livescan/models").path)
        }
        var seen = Set<String>()
        return folders.filter { seen.insert($0).inserted }
    }
}
