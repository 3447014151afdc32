#pragma once

#include "CBStatus.h"

#include <functional>
#include <mutex>
#include <stdexcept>

/// A call's early end, asked for by another thread (CBStatus.h). The call under way registers how to stop the work it
/// has handed to a library (`StopWhileRunning`); `cancel` calls that, and the call checks `isCancelled` between its
/// own steps.
struct CB_Cancellation {
public:
    void cancel();
    bool isCancelled() const;

    /// Registers `stop` for the life of this object: called at once when the cancellation was asked for already,
    /// else by `cancel` while it lives. Its destructor waits for a `stop` under way.
    class StopWhileRunning {
    public:
        StopWhileRunning(CB_Cancellation *cancellation, std::function<void()> stop);
        ~StopWhileRunning();
        StopWhileRunning(const StopWhileRunning &) = delete;
        StopWhileRunning &operator=(const StopWhileRunning &) = delete;

    private:
        CB_Cancellation *cancellation;
    };

private:
    mutable std::mutex lock;
    bool cancelled = false;
    std::function<void()> stop;
};

namespace cbridge {

/// Thrown inside CBridge when a call ends early because its cancellation was asked for: CB_CANCELLED at the header.
struct Cancelled : std::runtime_error {
    Cancelled() : std::runtime_error("cancelled") {}
};

/// Throws Cancelled when `cancellation` (NULL: none) was asked for.
void throwIfCancelled(const CB_Cancellation *cancellation);

}  // namespace cbridge
