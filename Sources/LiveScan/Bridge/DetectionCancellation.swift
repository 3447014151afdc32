internal import CBridge

/// A learned detector's run ended early from another thread (`CB_Cancellation`): a video's detector turn begun on a
/// frame the view has since left is ended, so that the turn on the new view need not wait for its core.
final class DetectionCancellation: @unchecked Sendable {
    let handle: OpaquePointer

    init() throws {
        var handle: OpaquePointer?
        try check(CB_Cancellation_new(&handle)) { .engineFailure("cancellation: \($0)") }
        self.handle = handle!
    }

    deinit {
        CB_Cancellation_delete(handle)
    }

    /// Ends the run under way, and any run given this cancellation later, with `CancellationError`. Any thread.
    func cancel() {
        CB_Cancellation_cancel(handle)
    }

    var isCancelled: Bool { CB_Cancellation_is_cancelled(handle) != 0 }

    /// Throws `CancellationError` once `cancel` was called.
    func throwIfCancelled() throws {
        if isCancelled {
            throw CancellationError()
        }
    }
}
