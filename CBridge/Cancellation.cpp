#include "Cancellation.hpp"

#include "Internal.hpp"

void CB_Cancellation::cancel() {
    const std::lock_guard<std::mutex> held(lock);
    cancelled = true;
    if (stop) stop();
}

bool CB_Cancellation::isCancelled() const {
    const std::lock_guard<std::mutex> held(lock);
    return cancelled;
}

CB_Cancellation::StopWhileRunning::StopWhileRunning(CB_Cancellation *cancellation, std::function<void()> stop)
    : cancellation(cancellation) {
    if (cancellation == nullptr) return;
    const std::lock_guard<std::mutex> held(cancellation->lock);
    cancellation->stop = std::move(stop);
    if (cancellation->cancelled) cancellation->stop();
}

CB_Cancellation::StopWhileRunning::~StopWhileRunning() {
    if (cancellation == nullptr) return;
    const std::lock_guard<std::mutex> held(cancellation->lock);
    cancellation->stop = nullptr;
}

namespace cbridge {

void throwIfCancelled(const CB_Cancellation *cancellation) {
    if (cancellation != nullptr && cancellation->isCancelled()) throw Cancelled();
}

}  // namespace cbridge

extern "C" CB_Status CB_Cancellation_new(CB_Cancellation **out_cancellation) {
    CB_TRY
    CB_REQUIRE(out_cancellation != nullptr, "CB_Cancellation_new: NULL argument");
    *out_cancellation = new CB_Cancellation();
    return CB_OK;
    CB_CATCH
}

extern "C" void CB_Cancellation_delete(CB_Cancellation *cancellation) { delete cancellation; }

extern "C" void CB_Cancellation_cancel(CB_Cancellation *cancellation) {
    if (cancellation == nullptr) return;
    try {
        cancellation->cancel();
    } catch (...) {
        // A lock that cannot be taken (std::system_error) leaves the call to end as it would have.
    }
}

extern "C" int CB_Cancellation_is_cancelled(const CB_Cancellation *cancellation) {
    try {
        return cancellation != nullptr && cancellation->isCancelled() ? 1 : 0;
    } catch (...) {
        return 0;
    }
}
