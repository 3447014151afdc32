#include "Internal.hpp"

#include <cstdlib>
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

}  // namespace cbridge

extern "C" const char *CB_last_error(void) { return lastError.c_str(); }

extern "C" void CB_free(void *pointer) { std::free(pointer); }
