#include "OnnxRuntime.hpp"

#include "OnnxRuntimeApi.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <vector>

namespace cbridge {

namespace {

/// The loaded library: its API table and its environment, made once per process and kept to its end (ONNX Runtime
/// does not support being unloaded while its statics live, and a process needs one).
struct OnnxLibrary {
    const OrtApi *api = nullptr;
    OrtEnv *environment = nullptr;
};

/// `status`'s message, prefixed by what failed; the status released. For a non-NULL status only.
std::string taken(const OrtApi &api, OrtStatus *status, const std::string &what) {
    const char *message = api.GetErrorMessage(status);
    std::string text = what + ": " + (message != nullptr ? message : "ONNX Runtime gave no reason");
    api.ReleaseStatus(status);
    return text;
}

/// Throws `Error` with `status`'s message when `status` is not NULL (a failure).
template <typename Error>
void check(const OrtApi &api, OrtStatus *status, const std::string &what) {
    if (status != nullptr) {
        throw Error(taken(api, status, what));
    }
}

/// The library at `path`, loaded by the first call (later calls get it whatever path they give).
const OnnxLibrary &library(const std::string &path) {
    static std::mutex lock;
    static OnnxLibrary *loaded = nullptr;  // never freed: see OnnxLibrary
    const std::lock_guard<std::mutex> guard(lock);
    if (loaded != nullptr) {
        return *loaded;
    }
    // RTLD_LOCAL: its symbols stay its own, so they cannot take the place of the embedding app's.
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char *reason = dlerror();
        throw ModelUnavailable("the ONNX Runtime library " + path + " could not be loaded (run `make setup` again): " +
                               (reason != nullptr ? reason : "no reason given"));
    }
    const auto getApiBase = reinterpret_cast<OrtGetApiBaseFunction>(dlsym(handle, "OrtGetApiBase"));
    const OrtApiBase *base = getApiBase != nullptr ? getApiBase() : nullptr;
    if (base == nullptr) {
        throw ModelUnavailable("the ONNX Runtime library " + path + " has no OrtGetApiBase");
    }
    // Asking for a version the library does not serve prints a line to stderr: asked only of a library that says
    // it is new enough.
    const char *version = base->GetVersionString();
    const std::string versionText = version != nullptr ? version : "";
    const bool isNewEnough =
        versionText.rfind("1.", 0) == 0 && std::atoi(versionText.c_str() + 2) >= ORT_API_VERSION_PINNED;
    const OrtApi *api = isNewEnough ? base->GetApi(ORT_API_VERSION_PINNED) : nullptr;
    if (api == nullptr) {
        throw ModelUnavailable("the ONNX Runtime library " + path + " is version " + versionText + "; 1." +
                               std::to_string(ORT_API_VERSION_PINNED) + " or newer is needed (run `make setup` again)");
    }
    auto made = std::make_unique<OnnxLibrary>();
    made->api = api;
    // Only fatal messages are logged (to stderr, ONNX Runtime's default): every failure comes back as a status, whose
    // message the caller reports.
    check<ModelUnavailable>(*api, api->CreateEnv(ORT_LOGGING_LEVEL_FATAL, "LiveScan", &made->environment),
                            "ONNX Runtime's environment could not be made");
    // The runtime records usage events (its errors too: each turn a scan ends is one) in the user's home, for
    // Microsoft's collector. This stops all but the first, which it records as the environment is made; only the
    // variable ORT_DISABLE_TELEMETRY, set before, stops that one, and the process's environment is its owner's to
    // set (the livescan command sets it; README "Privacy").
    check<ModelUnavailable>(*api, api->DisableTelemetryEvents(made->environment),
                            "ONNX Runtime's telemetry could not be turned off");
    loaded = made.release();
    return *loaded;
}

}  // namespace

std::unique_ptr<OnnxNetwork> OnnxNetwork::open(const std::string &runtimePath, const std::string &modelPath,
                                               int threads) {
    const OnnxLibrary &loaded = library(runtimePath);
    const OrtApi &api = *loaded.api;
    std::unique_ptr<OnnxNetwork> network(new OnnxNetwork());
    network->api = &api;
    OrtSessionOptions *options = nullptr;
    check<ModelUnavailable>(api, api.CreateSessionOptions(&options), "ONNX Runtime's session options");
    const std::unique_ptr<OrtSessionOptions, void (*)(OrtSessionOptions *)> ownedOptions(options,
                                                                                         api.ReleaseSessionOptions);
    const std::string what = "the network " + modelPath + " could not be set up";
    // The caller decides what runs where (a video's detector on a thread of its own) and on how many threads: with
    // one, ONNX Runtime makes no pool; with more, its pool's threads block while idle (no spinning), so that they
    // take no core from the caller's other threads between runs.
    check<ModelUnavailable>(api, api.SetIntraOpNumThreads(options, threads), what);
    check<ModelUnavailable>(api, api.SetInterOpNumThreads(options, 1), what);
    check<ModelUnavailable>(api, api.SetSessionExecutionMode(options, ORT_SEQUENTIAL), what);
    check<ModelUnavailable>(api, api.SetSessionGraphOptimizationLevel(options, ORT_ENABLE_ALL), what);
    check<ModelUnavailable>(api, api.AddSessionConfigEntry(options, "session.intra_op.allow_spinning", "0"), what);
    check<ModelUnavailable>(api, api.AddSessionConfigEntry(options, "session.inter_op.allow_spinning", "0"), what);
    // The CPU arena stays on: without it the detector took more memory (+98 MB at 1312x736) and more time (327
    // against 251 ms), its buffers mapped afresh at every run.
    check<ModelUnavailable>(api, api.CreateSession(loaded.environment, modelPath.c_str(), options, &network->session),
                            "the network " + modelPath + " could not be loaded (run `make setup` again)");
    check<ModelUnavailable>(api, api.CreateCpuMemoryInfo(OrtDeviceAllocator, OrtMemTypeDefault, &network->memory),
                            what);
    size_t inputs = 0, outputs = 0;
    check<ModelUnavailable>(api, api.SessionGetInputCount(network->session, &inputs), what);
    check<ModelUnavailable>(api, api.SessionGetOutputCount(network->session, &outputs), what);
    if (inputs != 1 || outputs < 1) {
        throw ModelUnavailable("the network " + modelPath + " has " + std::to_string(inputs) + " inputs and " +
                               std::to_string(outputs) + " outputs, not 1 and 1 or more");
    }
    OrtAllocator *allocator = nullptr;
    check<ModelUnavailable>(api, api.GetAllocatorWithDefaultOptions(&allocator), what);
    for (const bool isInput : {true, false}) {
        char *name = nullptr;
        check<ModelUnavailable>(api,
                                isInput ? api.SessionGetInputName(network->session, 0, allocator, &name)
                                        : api.SessionGetOutputName(network->session, 0, allocator, &name),
                                what);
        (isInput ? network->inputName : network->outputName) = name != nullptr ? name : "";
        if (OrtStatus *status = api.AllocatorFree(allocator, name)) {
            api.ReleaseStatus(status);
        }
    }
    return network;
}

OnnxNetwork::~OnnxNetwork() {
    if (memory != nullptr) api->ReleaseMemoryInfo(memory);
    if (session != nullptr) api->ReleaseSession(session);
}

cv::Mat OnnxNetwork::run(const cv::Mat &blob, bool releasesMemory, CB_Cancellation *cancellation) const {
    throwIfCancelled(cancellation);
    CV_Assert(blob.type() == CV_32F && blob.isContinuous() && blob.dims >= 1);
    const OrtApi &api = *this->api;
    const std::vector<int64_t> shape(blob.size.p, blob.size.p + blob.dims);
    const auto releaseValue = [&api](OrtValue *value) { api.ReleaseValue(value); };
    // The input wraps the blob's buffer, which ONNX Runtime only reads.
    OrtValue *input = nullptr;
    check<std::runtime_error>(api,
                              api.CreateTensorWithDataAsOrtValue(memory, const_cast<float *>(blob.ptr<float>()),
                                                                 blob.total() * sizeof(float), shape.data(),
                                                                 shape.size(), ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT,
                                                                 &input),
                              "ONNX Runtime: the network's input");
    const std::unique_ptr<OrtValue, decltype(releaseValue)> ownedInput(input, releaseValue);
    // Run options only to give the buffers back or to end the run early; a run without them (NULL) keeps them.
    std::unique_ptr<OrtRunOptions, void (*)(OrtRunOptions *)> runOptions(nullptr, api.ReleaseRunOptions);
    if (releasesMemory || cancellation != nullptr) {
        OrtRunOptions *made = nullptr;
        check<std::runtime_error>(api, api.CreateRunOptions(&made), "ONNX Runtime: run options");
        runOptions.reset(made);
    }
    if (releasesMemory) {
        check<std::runtime_error>(api,
                                  api.AddRunConfigEntry(runOptions.get(), "memory.enable_memory_arena_shrinkage",
                                                        "cpu:0"),
                                  "ONNX Runtime: run options");
    }
    const char *inputNames[] = {inputName.c_str()};
    const char *outputNames[] = {outputName.c_str()};
    OrtValue *output = nullptr;
    OrtStatus *ran = nullptr;
    {
        // ONNX Runtime looks at the terminate flag between the network's nodes (and before the first): a run under
        // way ends within a node's time of CB_Cancellation_cancel.
        const CB_Cancellation::StopWhileRunning stopping(cancellation, [&api, options = runOptions.get()] {
            if (OrtStatus *status = api.RunOptionsSetTerminate(options)) api.ReleaseStatus(status);
        });
        ran = api.Run(session, runOptions.get(), inputNames, &input, 1, outputNames, 1, &output);
    }
    if (ran != nullptr && cancellation != nullptr && cancellation->isCancelled()) {
        api.ReleaseStatus(ran);
        throw Cancelled();
    }
    check<std::runtime_error>(api, ran, "ONNX Runtime: the network's run failed");
    const std::unique_ptr<OrtValue, decltype(releaseValue)> ownedOutput(output, releaseValue);
    OrtTensorTypeAndShapeInfo *info = nullptr;
    check<std::runtime_error>(api, api.GetTensorTypeAndShape(output, &info), "ONNX Runtime: the network's output");
    const std::unique_ptr<OrtTensorTypeAndShapeInfo, void (*)(OrtTensorTypeAndShapeInfo *)> ownedInfo(
        info, api.ReleaseTensorTypeAndShapeInfo);
    ONNXTensorElementDataType type = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
    size_t dimensions = 0;
    check<std::runtime_error>(api, api.GetTensorElementType(info, &type), "ONNX Runtime: the network's output");
    check<std::runtime_error>(api, api.GetDimensionsCount(info, &dimensions), "ONNX Runtime: the network's output");
    std::vector<int64_t> outputShape(dimensions);
    check<std::runtime_error>(api, api.GetDimensions(info, outputShape.data(), dimensions),
                              "ONNX Runtime: the network's output");
    if (type != ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT || dimensions == 0) {
        throw std::runtime_error("ONNX Runtime: the network's output is not a float tensor");
    }
    void *data = nullptr;
    check<std::runtime_error>(api, api.GetTensorMutableData(output, &data), "ONNX Runtime: the network's output");
    const std::vector<int> sizes(outputShape.begin(), outputShape.end());
    // Copied out: the output's buffer is ONNX Runtime's, freed with it.
    return cv::Mat(int(sizes.size()), sizes.data(), CV_32F, data).clone();
}

cv::Mat planarBlob(const cv::Mat &image, double mean, double scale) {
    const int sizes[] = {1, image.channels(), image.rows, image.cols};
    cv::Mat blob(4, sizes, CV_32F);
    cv::Mat pixels;
    image.convertTo(pixels, CV_32F);
    pixels -= cv::Scalar::all(mean);
    pixels *= scale;
    std::vector<cv::Mat> planes;
    for (int channel = 0; channel < image.channels(); ++channel) {
        planes.emplace_back(image.rows, image.cols, CV_32F, blob.ptr<float>(0, channel));
    }
    cv::split(pixels, planes);  // into the blob's planes: they have the size and type split makes
    return blob;
}

}  // namespace cbridge
