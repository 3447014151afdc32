import Foundation
import LiveScan

/// `livescan sources`: the cameras present (V4L2 capture devices), one per line with its name.
enum SourcesCommand {
    static func run(_ arguments: [String]) -> ExitCode {
        guard arguments.isEmpty else {
            return Diagnostics.usage(UsageError(message: "sources takes no arguments"))
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
        let cameras = names.compactMap { name -> Int? in
            name.hasPrefix("video") ? Int(name.dropFirst("video".count)) : nil
        }.sorted()
        guard !cameras.isEmpty else {
            print("no cameras found (no /dev/video* devices)")
            return .nothingFound
        }
        for index in cameras {
            // The kernel names each device; a device node without a readable name is still listed.
            let label = (try? String(contentsOfFile: "/sys/class/video4linux/video\(index)/name", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown device"
            let access = Foundation.access("/dev/video\(index)", R_OK | W_OK) == 0 ? "" : "  (no permission)"
            print("/dev/video\(index)  \(TerminalSafeText.escape(label))\(access)")
        }
        return .found
    }
}
