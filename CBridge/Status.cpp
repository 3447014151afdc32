#include "Internal.hpp"

#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

namespace {
thread_local std::string lastError;
}

namespace cbridge {

CB_Status fail(CB_Status status, const std::string &message) {
    lastError = message;
    return status;
}

char *copyString(const std::string &text) {
    auto *copy = static_cast<char *>(std::malloc(text.size() + 1));
    if (copy == nullptr) {
        throw std::bad_alloc();
    }
    std::memcpy(copy, text.data(), text.size());
    copy[text.size()] = '\0';
    return copy;
}

std::optional<long long> regularFileSize(const std::string &path) {
    struct stat info;
    if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
        return std::nullopt;
    }
    return static_cast<long long>(info.st_size);
}

std::optional<std::string> pixelLimitExceeded(long long width, long long height, long long maxPixels) {
    // In floating point: a TIFF header may say 4 billion by 4 billion, whose product overflows 64 bits.
    const double pixels = static_cast<double>(width) * static_cast<double>(height);
    if (maxPixels <= 0 || pixels <= static_cast<double>(maxPixels)) {
        return std::nullopt;
    }
    char message[160];
    if (maxPixels >= 1000000) {
        std::snprintf(message, sizeof message,
                      "%lld x %lld pixels (%.1f megapixels), over the limit of %.1f megapixels", width, height,
                      pixels / 1e6, maxPixels / 1e6);
    } else {
        std::snprintf(message, sizeof message, "%lld x %lld pixels (%.0f), over the limit of %lld pixels", width,
                      height, pixels, maxPixels);
    }
    return std::string(message);
}

}  // namespace cbridge

extern "C" const char *CB_last_error(void) { return lastError.c_str(); }
