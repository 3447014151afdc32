/// A value made on a thread of its own (`JoinableThread`) while the caller goes on: `value()` waits for it and
/// gives it, or throws what making it threw. Once `value()` has returned, the thread is gone.
final class ValueMadeOnThread<Value>: @unchecked Sendable {
    /// Written by the thread, read after it is joined (`pthread_join` orders the two).
    private final class Outcome: @unchecked Sendable {
        var result: Result<Value, any Error>?
    }

    private let outcome: Outcome
    private let thread: JoinableThread

    /// Starts `make` on a thread named `name` (at most 15 characters).
    init(name: String, make: @escaping @Sendable () throws -> Value) throws {
        let outcome = Outcome()
        self.outcome = outcome
        thread = try JoinableThread(name: name) { outcome.result = Result { try make() } }
    }

    /// The value, once made; what making it threw.
    func value() throws -> Value {
        thread.join()
        return try outcome.result!.get()
    }
}
