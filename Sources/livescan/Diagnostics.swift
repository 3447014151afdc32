import Foundation
import LiveScan

/// The one way the command reports failures: a single `Error: ...` line on stderr.
enum Diagnostics {
    static func report(_ error: Error) {
        var message = (error as? ScanError)?.description ?? (error as? UsageError)?.message ?? "\(error)"
        if case .imageTooLarge = error as? ScanError {
            message += " (--max-pixels raises the limit)"
        }
        printError("Error: " + TerminalSafeText.escape(message))
    }

    /// Reports `error` and returns `code`, for `return Diagnostics.fail(...)`.
    static func fail(_ error: Error, code: ExitCode) -> ExitCode {
        report(error)
        return code
    }

    /// A usage error: the message, the command's usage line (scan's unless told) and where help is.
    static func usage(_ error: UsageError, usageLine: String = ScanOption.usageLine) -> ExitCode {
        printError("Error: " + TerminalSafeText.escape(error.message))
        printError(usageLine)
        printError("See 'livescan --help'.")
        return .usage
    }

    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
