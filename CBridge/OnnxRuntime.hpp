#pragma once

#include "Cancellation.hpp"

#include <opencv2/core.hpp>

#include <memory>
#include <stdexcept>
#include <string>

struct OrtApi;
struct OrtSession;
struct OrtMemoryInfo;

namespace cbridge {

/// The ONNX Runtime library or a network's file could not be loaded: a model missing, not a failure of the engine.
struct ModelUnavailable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// One ONNX network run by ONNX Runtime's C library (libonnxruntime, from the PyPI wheel `make setup` fetches; its
/// declarations in OnnxRuntimeApi.h), on the calling thread and `threads - 1` threads of ONNX Runtime's pool (made with
/// the network, blocking while idle: no spinning).
/// It runs PP-OCR's networks twice as fast as OpenCV 4.6's dnn, on their original files and at any input size
/// (Benchmarks/text-detector-study.md). ONNX Runtime lets several threads run one network at once, each with buffers of
/// its own.
class OnnxNetwork {
public:
    /// The network in the ONNX file `modelPath`, with the library at `runtimePath`: loaded once per process, the
    /// first path given (a process has one ONNX Runtime), and never unloaded. Throws ModelUnavailable when either
    /// cannot be loaded, with ONNX Runtime's reason. `threads` (at least 1) share each run, the caller's included.
    static std::unique_ptr<OnnxNetwork> open(const std::string &runtimePath, const std::string &modelPath, int threads);
    ~OnnxNetwork();
    OnnxNetwork(const OnnxNetwork &) = delete;
    OnnxNetwork &operator=(const OnnxNetwork &) = delete;

    /// Runs the network's one input on `blob` (a continuous CV_32F blob, NCHW) and returns its first output, as a
    /// CV_32F Mat of the output's shape (its own buffer). With `releasesMemory`, the buffers the run took are
    /// given back to the system after it (a picture's network run once: its buffers are hundreds of MB), else kept
    /// for the next run (a video's frames, each the same size). Throws std::runtime_error with ONNX Runtime's
    /// message when the run fails, Cancelled when `cancellation` (NULL: none) was asked for before or during it.
    cv::Mat run(const cv::Mat &blob, bool releasesMemory, CB_Cancellation *cancellation = nullptr) const;

private:
    OnnxNetwork() = default;
    const OrtApi *api = nullptr;
    OrtSession *session = nullptr;
    OrtMemoryInfo *memory = nullptr;
    std::string inputName, outputName;
};

/// `image` (8-bit or float, any channels) as a network's input: a 1 x channels x rows x columns CV_32F blob of
/// (pixel - mean) * scale, each channel a plane, as OpenCV's dnn::blobFromImage makes it.
cv::Mat planarBlob(const cv::Mat &image, double mean = 0, double scale = 1);

}  // namespace cbridge
