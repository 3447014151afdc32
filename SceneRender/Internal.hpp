// Shared by the SceneRender sources, never seen by Swift: the exception firewall and handle layouts.
#pragma once

#include "SceneRender.h"

#include <opencv2/core.hpp>

#include <exception>
#include <new>
#include <string>

namespace scenerender {

/// Leaves `message` for SR_last_error() on this thread and returns `status`.
SR_Status fail(SR_Status status, const std::string &message);

inline cv::Scalar scalar(SR_Color color) { return cv::Scalar(color.blue, color.green, color.red); }

/// cv::RNG turns seed 0 into a fixed non-zero state; fold 64 bits so every seed stays distinct.
inline cv::RNG makeRNG(uint64_t seed) { return cv::RNG(seed ^ 0x9E3779B97F4A7C15ULL); }

}  // namespace scenerender

struct SR_Canvas {
    cv::Mat pixels;  // CV_8UC3, BGR
};

// Every entry point's body runs between these: no C++ exception may cross the C header.
#define SR_TRY try {
#define SR_CATCH                                                                            \
    }                                                                                       \
    catch (const cv::Exception &error) {                                                    \
        return scenerender::fail(SR_ENGINE_FAILED, std::string("OpenCV: ") + error.what()); \
    }                                                                                       \
    catch (const std::bad_alloc &) {                                                        \
        return scenerender::fail(SR_ENGINE_FAILED, "out of memory");                        \
    }                                                                                       \
    catch (const std::exception &error) {                                                   \
        return scenerender::fail(SR_ENGINE_FAILED, error.what());                           \
    }                                                                                       \
    catch (...) {                                                                           \
        return scenerender::fail(SR_ENGINE_FAILED, "unknown C++ exception");                \
    }

#define SR_REQUIRE(condition, message)                              \
    do {                                                            \
        if (!(condition)) {                                         \
            return scenerender::fail(SR_INVALID_ARGUMENT, message); \
        }                                                           \
    } while (0)
