import Foundation

/// Files only: the barcodes of the next frames are decoded while the current one is tracked. One thread
/// reads frames ahead (bounded by `depth`) and hands each to a queue for barcode reading; `next()` returns
/// frames strictly in order with their barcodes. A reading that keeps nothing between frames reads them side
/// by side on a concurrent queue; one that compares each frame with the last (`BarcodeReading.readsInOrder`)
/// reads them one after the other on a serial one. The thread that reads the source only decodes: video files
/// decode on that one thread (`CB_Capture_open`), the scan's longest chain, so a frame's own preparation (its
/// grey, its cell means) is the serial queue's, not this thread's (1-minute 720p barcodes-only scan, 6 alternated
/// runs: this thread 3.2-3.6 s of CPU against the queue's 2.2-2.4 s before, 2.6 against 2.5 s after; wall
/// 3.90 -> 3.80 s). While it runs, the read-ahead is the one thread that reads the source. Text reading (whose
/// cache depends on the previous frame) and tracking stay on the scanner's thread.
///
/// Live sources never use this: there the newest frame wins, and reading ahead would only add latency.
final class BarcodeReadAhead: @unchecked Sendable {
    /// One frame on its way: its barcodes arrive when `decoded` is signalled.
    private final class Pending: @unchecked Sendable {
        let frame: Frame?
        var barcodes: Result<[Observation], Error> = .success([])
        let decoded = DispatchSemaphore(value: 0)

        init(frame: Frame?) {
            self.frame = frame
        }
    }

    private let source: FrameSource
    private let read: @Sendable (Frame) throws -> [Observation]
    private let queue: DispatchQueue
    private let depth: Int
    private let condition = NSCondition()
    /// Frames read and not yet taken, oldest first (at most `depth`). Counted under `condition`, not with a
    /// semaphore: libdispatch traps when a semaphore is freed below its initial value.
    private var waiting: [Pending] = []
    private var readFailure: Error?
    /// The reader met the end of the source (or failed): nothing more will be queued.
    private var readerDone = false
    private var stopped = false
    private let readerFinished = DispatchSemaphore(value: 0)

    /// Starts reading `source` ahead: at most `depth` frames are read and not yet taken.
    init(source: FrameSource, reading: any BarcodeReading, depth: Int) {
        self.source = source
        read = { try reading.barcodes(in: $0) }
        queue = reading.readsInOrder ? DispatchQueue(label: "LiveScan.barcodes") : DispatchQueue.global()
        self.depth = max(depth, 1)
        let reader = Thread { [self] in readFrames() }
        reader.name = "LiveScan.ahead"  // Linux keeps 15 characters of a name
        reader.start()
    }

    /// The next frame in order with its barcodes; nil at the end of the source. Throws what reading or
    /// decoding the frame threw.
    func next() throws -> (frame: Frame, barcodes: [Observation])? {
        condition.lock()
        while waiting.isEmpty && !readerDone {
            condition.wait()
        }
        if waiting.isEmpty {
            condition.unlock()
            if let readFailure {
                throw readFailure
            }
            return nil
        }
        let pending = waiting.removeFirst()
        condition.broadcast()
        condition.unlock()
        pending.decoded.wait()
        guard let frame = pending.frame else {
            return nil
        }
        return (frame, try pending.barcodes.get())
    }

    /// Stops reading and waits for the reader thread and for the frames still being decoded: a process that
    /// exits right after (Ctrl-C) must not tear zxing-cpp's static tables down under a running read (that
    /// crashed `livescan scan` about one interrupt in three). Call it once, from the thread that calls `next`.
    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
        readerFinished.wait()
        for pending in condition.withLock({ waiting }) {
            pending.decoded.wait()
        }
    }

    private func readFrames() {
        defer {
            condition.withLock {
                readerDone = true
                condition.broadcast()
            }
            readerFinished.signal()
        }
        while true {
            let stop = condition.withLock {
                while waiting.count >= depth && !stopped {
                    condition.wait()
                }
                return stopped
            }
            if stop {
                return
            }
            let frame: Frame?
            do {
                frame = try source.nextFrame()
            } catch {
                condition.withLock { readFailure = error }
                return
            }
            let pending = Pending(frame: frame)
            condition.withLock {
                waiting.append(pending)
                condition.broadcast()
            }
            guard let frame else {
                pending.decoded.signal()
                return
            }
            queue.async { [read] in
                pending.barcodes = Result { try read(frame) }
                pending.decoded.signal()
            }
        }
    }
}
