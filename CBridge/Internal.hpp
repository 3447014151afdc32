// Shared by the CBridge sources, never seen by Swift: the exception firewall and handle layouts.
#pragma once

#include "CBridge.h"

#include <opencv2/core.hpp>

#include <exception>
#include <string>

namespace cbridge {

/// Leaves `message` for CB_last_error() on this thread and returns `status`.
CB_Status fail(CB_Status status, const std::string &message);

/// Copies a std::string into a malloc'ed, NUL-terminated buffer that CB_free / the owning array frees.
char *copyString(const std::string &text);

}  // namespace cbridge

struct CB_Image {
    cv::Mat pixels;  // CV_8UC3, BGR
};

// Every entry point's body runs between these: no C++ exception may cross the C header.
#define CB_TRY try {
#define CB_CATCH                                                                         \
    }                                                                                    \
    catch (const cv::Exception &error) {                                                 \
        return cbridge::fail(CB_ENGINE_FAILED, std::string("OpenCV: ") + error.what());  \
    }                                                                                    \
    catch (const std::bad_alloc &) {                                                     \
        return cbridge::fail(CB_ENGINE_FAILED, "out of memory");                         \
    }                                                                                    \
    catch (const std::exception &error) {                                               \
        return cbridge::fail(CB_ENGINE_FAILED, error.what());                            \
    }                                                                                    \
    catch (...) {                                                                        \
        return cbridge::fail(CB_ENGINE_FAILED, "unknown C++ exception");                 \
    }

#define CB_REQUIRE(condition, message)                           \
    do {                                                         \
        if (!(condition)) {                                      \
            return cbridge::fail(CB_INVALID_ARGUMENT, message);  \
        }                                                        \
    } while (0)
