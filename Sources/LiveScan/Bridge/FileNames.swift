import Foundation

/// The file-system calls LiveScan makes on a name given as a `String` that may carry bytes that are not UTF-8
/// (`FileNameBytes`): each passes the name's own bytes to the system, where `FileManager` would pass U+FFFD's.
public enum FileNames {
    /// stat(2) of `path`, following links; nil with errno set when it fails.
    public static func status(_ path: String) -> stat? {
        var status = stat()
        return FileNameBytes.withCName(path) { stat($0, &status) } == 0 ? status : nil
    }

    /// Whether `path` names something, and whether that is a folder (links followed).
    public static func exists(_ path: String, isDirectory: inout Bool) -> Bool {
        guard let status = status(path) else { return false }
        isDirectory = status.st_mode & S_IFMT == S_IFDIR
        return true
    }

    /// access(2) of `path` for `mode` (R_OK...).
    public static func isAccessible(_ path: String, _ mode: Int32) -> Bool {
        FileNameBytes.withCName(path) { access($0, mode) } == 0
    }

    /// The names in folder `path` (not `.` and `..`), each as its bytes are (readdir(3): `contentsOfDirectory`
    /// replaces a byte that is not UTF-8 with U+FFFD, and that name then opens nothing). Nil when it cannot be
    /// listed.
    public static func namesInFolder(_ path: String) -> [String]? {
        guard let folder = FileNameBytes.withCName(path, { opendir($0) }) else { return nil }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                FileNameBytes.string(fromBytes: raw.prefix { $0 != 0 })
            }
            if name != "." && name != ".." {
                names.append(name)
            }
        }
        return names
    }
}
