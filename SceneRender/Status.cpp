#include "Internal.hpp"

namespace {
thread_local std::string lastError;
}

namespace scenerender {

SR_Status fail(SR_Status status, const std::string &message) {
    lastError = message;
    return status;
}

}  // namespace scenerender

extern "C" const char *SR_last_error(void) { return lastError.c_str(); }
