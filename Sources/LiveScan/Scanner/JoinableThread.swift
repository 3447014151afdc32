import Foundation
import Glibc

/// A thread whose end can be waited for (`join`): once `join` returns, the thread is gone, and so is everything its
/// body held. Foundation's `Thread` cannot be joined: it releases its body, and with it the body's references, some
/// time after the body returns, on its own thread. A detector turn's thread that held the last reference to the
/// scan's readers so ended Tesseract's engines while the process, its scan done, was exiting and freeing Tesseract's
/// own statics: a crash after the event log's last line (3 of 5 scans of ICDAR's photos coming into focus).
final class JoinableThread: @unchecked Sendable {
    private let handle: pthread_t
    private let lock = NSLock()
    private var isJoined = false

    /// Starts `body` on a new thread named `name` (at most 15 characters: Linux keeps no more), with a stack of
    /// `stackSize` bytes (nil: the system's default).
    init(name: String, stackSize: Int? = nil, body: @escaping @Sendable () -> Void) throws {
        precondition(name.utf8.count <= 15, "a thread name of more than 15 characters is not kept")
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize {
            pthread_attr_setstacksize(&attributes, stackSize)
        }
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var handle = pthread_t()
        let status = pthread_create(&handle, &attributes, { context in
            // Taken (and released) on this thread, before the thread ends: `join` waits for that too.
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw ScanError.engineFailure("could not start a thread (\(name)): error \(status)")
        }
        self.handle = handle
        _ = setThreadName(handle, name)
    }

    /// Waits until the thread has ended, from any thread but its own (there it returns at once, as do later calls).
    func join() {
        lock.withLock {
            guard !isJoined, pthread_equal(handle, pthread_self()) == 0 else { return }
            isJoined = true
            pthread_join(handle, nil)
        }
    }

    deinit {
        // Its resources are freed by a join, or by the system when it ends detached.
        if !isJoined {
            pthread_detach(handle)
        }
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}

/// glibc's pthread_setname_np, which Swift's Glibc module does not declare (it is a GNU extension).
@_silgen_name("pthread_setname_np")
private func setThreadName(_ thread: pthread_t, _ name: UnsafePointer<CChar>) -> Int32
