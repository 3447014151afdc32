import Foundation

/// The cores this process may run on: the machine's, fewer when its CPU affinity allows fewer (`taskset`, a Slurm
/// task bound to the CPUs it was given). Foundation's `activeProcessorCount` counts the machine's online cores whatever
/// the affinity (measured: 2 under `taskset -c 0` on a 2-core machine).
public enum ProcessorCores {
    /// The count, from `status` (the text of /proc/self/status; the machine's online cores without it).
    public static func usable(status: String? = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8))
        -> Int {
        let online = ProcessInfo.processInfo.activeProcessorCount
        guard let line = status?.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else {
            return online
        }
        // `0-3,8,10-11`: ranges and single cores.
        var allowed = 0
        for part in line.dropFirst("Cpus_allowed_list:".count).split(separator: ",") {
            let bounds = part.trimmingCharacters(in: .whitespaces).split(separator: "-").compactMap { Int($0) }
            if bounds.count == 2, bounds[1] >= bounds[0] {
                allowed += bounds[1] - bounds[0] + 1
            } else if bounds.count == 1 {
                allowed += 1
            }
        }
        return allowed > 0 ? min(allowed, online) : online
    }
}
