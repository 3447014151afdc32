/// Everything that can go wrong while scanning, each with a message a person can act on.
public enum ScanError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The source (file, folder, camera or stream) could not be opened or holds nothing to decode.
    case sourceUnavailable(source: String, reason: String)
    /// An image announces more pixels than the limit it was opened with (`ImageSource.defaultMaxPixels`);
    /// nothing of it was decoded.
    case imageTooLarge(source: String, reason: String)
    /// The source opened but stopped delivering frames before its announced end.
    case sourceDamaged(source: String, reason: String)
    /// A recognizer's data (Tesseract traineddata) is not installed.
    case modelMissing(String)
    /// A value given by the caller is out of range or unknown; `parameter` names it.
    case invalidParameter(parameter: String, reason: String)
    /// OpenCV, zxing-cpp or Tesseract failed inside a call.
    case engineFailure(String)
    /// An event log or output file could not be written.
    case outputFailed(path: String, reason: String)
    /// The reader of an output pipe went away (`livescan ... | head`): not a failure, a reason to stop.
    case outputClosed(path: String)

    public var description: String {
        switch self {
        case let .sourceUnavailable(source, reason): return "\(source): \(reason)"
        case let .sourceDamaged(source, reason): return "\(source): \(reason)"
        case let .imageTooLarge(source, reason): return "\(source): \(reason)"
        case let .modelMissing(message): return message
        case let .invalidParameter(parameter, reason): return "invalid \(parameter): \(reason)"
        case let .engineFailure(message): return message
        case let .outputFailed(path, reason): return "cannot write \(path): \(reason)"
        case let .outputClosed(path): return "\(path) was closed by its reader"
        }
    }
}
