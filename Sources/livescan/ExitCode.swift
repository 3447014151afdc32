import Foundation

/// Exit codes, as zbarimg's where they overlap.
enum ExitCode: Int32 {
    /// Something was found.
    case found = 0
    /// An input could not be read, or an output not written.
    case inputError = 1
    /// The command line is wrong (unknown option or type, missing language data).
    case usage = 2
    /// Everything was read and nothing was found.
    case nothingFound = 4
    /// Stopped by SIGHUP (128 + 1: the terminal closed), SIGINT (128 + 2) or SIGTERM (128 + 15).
    case hungUp = 129
    case interrupted = 130
    case terminated = 143
}

extension ExitCode {
    /// The status of a command stopped by `signal`: 143 for SIGTERM, 129 for SIGHUP, 130 for SIGINT (and
    /// anything else).
    init(signal: Int32) {
        switch signal {
        case SIGTERM: self = .terminated
        case SIGHUP: self = .hungUp
        default: self = .interrupted
        }
    }
}
