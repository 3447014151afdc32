import Dispatch
import Foundation

/// Turns SIGINT, SIGTERM and SIGHUP into a clean stop (the event log gets its `end` line): the handler runs on a
/// dispatch queue, not in signal context, so it may take locks. SIGHUP is the terminal closing, the common end of a
/// scan in an SSH session that dropped. SIGPIPE is ignored so that a closed pipe is a write error, not a death.
final class SignalWatcher: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    private let lock = NSLock()
    private var caught: Int32?
    private static let stopSignals = [SIGINT, SIGTERM, SIGHUP]

    /// The signal that arrived first, if any.
    var caughtSignal: Int32? { lock.withLock { caught } }

    init(onSignal: @escaping @Sendable () -> Void) {
        // A parent may have started us with these blocked (a thread's mask is inherited): Ctrl-C must work.
        var signals = sigset_t()
        sigemptyset(&signals)
        SignalWatcher.stopSignals.forEach { sigaddset(&signals, $0) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)  // a file-size limit (ulimit -f) is then a write error (EFBIG), not a death
        for number in SignalWatcher.stopSignals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in
                self?.lock.withLock { if self?.caught == nil { self?.caught = number } }
                onSignal()
            }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        sources.forEach { $0.cancel() }
    }
}
