/// `livescan report EVENTS.jsonl`: not written yet.
enum ReportCommand {
    static func run(_ arguments: [String]) -> ExitCode {
        Diagnostics.usage(UsageError(message: "report is not available yet"))
    }
}
