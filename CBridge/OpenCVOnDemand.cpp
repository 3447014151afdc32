// OpenCV's imgcodecs and videoio through dlopen: see OpenCVOnDemand.hpp. Package.swift does not link them, so a
// direct call to either module here would fail the link, not load it at start.
#include "OpenCVOnDemand.hpp"
#include "QuietCodecs.hpp"

#include <opencv2/imgcodecs.hpp>

#include <dlfcn.h>

#include <mutex>
#include <new>
#include <stdexcept>

namespace {

/// One OpenCV module, opened on the first symbol asked of it (RTLD_LOCAL: its symbols are only ever reached
/// through `symbol`). OpenCV exports C++ functions only: they are found by their mangled names, and each caller
/// casts to a type taken from the header with decltype, so the declaration and the call cannot disagree.
class OnDemandModule {
public:
    explicit OnDemandModule(const char *module) : module_(module) {}

    void *symbol(const char *mangled) {
        std::call_once(opened_, [this] { open(); });
        if (handle_ == nullptr) {
            throw std::runtime_error(error_);
        }
        void *address = ::dlsym(handle_, mangled);
        if (address == nullptr) {
            throw std::runtime_error("OpenCV's " + module_ + " module has no " + mangled);
        }
        return address;
    }

private:
    void open() {
        const std::string library = cbridge::moduleLibrary(module_);
        handle_ = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle_ == nullptr) {
            const char *reason = ::dlerror();
            error_ = "OpenCV's " + module_ + " module could not be loaded: " + (reason != nullptr ? reason : library);
            return;
        }
        cbridge::imageCodecsMayHaveLoaded();  // imgcodecs, or videoio, which links it
    }

    const std::string module_;
    std::once_flag opened_;
    void *handle_ = nullptr;  // never closed: OpenCV keeps state (codec registries, backends) for the process
    std::string error_;
};

OnDemandModule &imgcodecs() {
    static OnDemandModule module("imgcodecs");
    return module;
}

OnDemandModule &videoio() {
    static OnDemandModule module("videoio");
    return module;
}

/// A `Class` made by its default constructor in a loaded module: `Class::Class()` is a function taking `this`.
template <typename Class>
std::unique_ptr<Class> constructed(OnDemandModule &module, const char *constructor) {
    using Constructor = void (*)(Class *);
    static const auto construct = reinterpret_cast<Constructor>(module.symbol(constructor));
    void *memory = ::operator new(sizeof(Class));
    try {
        construct(static_cast<Class *>(memory));
    } catch (...) {
        ::operator delete(memory);
        throw;
    }
    return std::unique_ptr<Class>(static_cast<Class *>(memory));
}

}  // namespace

namespace cbridge {

std::string moduleLibrary(const std::string &module) {
    return "libopencv_" + module + ".so." + std::to_string(CV_VERSION_MAJOR * 100 + CV_VERSION_MINOR);
}

cv::Mat decodeImage(const std::vector<uchar> &bytes, int flags) {
    using Decode = decltype(static_cast<cv::Mat (*)(cv::InputArray, int)>(&cv::imdecode));
    static const auto decode = reinterpret_cast<Decode>(imgcodecs().symbol("_ZN2cv8imdecodeERKNS_11_InputArrayEi"));
    return decode(bytes, flags);
}

std::vector<uchar> encodeImage(const std::string &extension, const cv::Mat &image, const std::vector<int> &parameters) {
    using Encode = decltype(&cv::imencode);
    static const auto encode = reinterpret_cast<Encode>(imgcodecs().symbol(
        "_ZN2cv8imencodeERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEERKNS_11_InputArrayERSt6"
        "vectorIhSaIhEERKSB_IiSaIiEE"));
    std::vector<uchar> bytes;
    if (!encode(extension, image, bytes, parameters)) {
        throw std::runtime_error("OpenCV could not encode the image as " + extension);
    }
    return bytes;
}

std::unique_ptr<cv::VideoCapture> newVideoCapture() {
    return constructed<cv::VideoCapture>(videoio(), "_ZN2cv12VideoCaptureC1Ev");
}

}  // namespace cbridge
