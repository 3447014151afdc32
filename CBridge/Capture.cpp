// CB_Capture_*: video files and stream URLs through LiveScan's own FFmpeg decoder (MediaDecoder), cameras (V4L2)
// through cv::VideoCapture (videoio, loaded when first used: OpenCVOnDemand.hpp). Image sequences are LiveScan's
// own (VideoSource.swift), each file checked and decoded as a still.
#include "Internal.hpp"
#include "MediaDecoder.hpp"
#include "OpenCVOnDemand.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

/// Exactly one of the two is in use: `decoder` for files and URLs, `capture` for cameras.
struct CB_Capture {
    std::unique_ptr<cbridge::MediaDecoder> decoder;
    std::unique_ptr<cv::VideoCapture> capture;
};

namespace {

// OpenCV's FFmpeg backend bounds opening and reading a URL by 30 s each when not told otherwise
// (LIBAVFORMAT_INTERRUPT_OPEN/READ_DEFAULT_TIMEOUT_MS); CB_Capture_open keeps that bound.
constexpr int defaultTimeoutMs = 30000;

// Streams: one decoder thread per core, not FFmpeg's automatic one more (slices of a frame decode side by side at no
// delay). Measured on 2 cores, tracking-mixed 720p / 1080p decoded alone: 1 thread 801 / 309 fps (1.25 / 3.24 ms
// CPU a frame), 2 threads 1268 / 532 fps (1.37 / 3.31 ms), automatic (3) 997 / 494 fps (1.58 / 3.37 ms).
int decoderThreads() {
    const unsigned cores = std::thread::hardware_concurrency();
    return cores == 0 ? 0 : static_cast<int>(std::min(cores, 16u));
}

CB_Status openDecoder(const char *url, const cbridge::MediaDecoderOptions &options, CB_Capture **out_capture) {
    auto capture = std::make_unique<CB_Capture>();
    try {
        capture->decoder = cbridge::MediaDecoder::open(url, options);
    } catch (const cbridge::PictureTooLarge &error) {
        return cbridge::fail(CB_TOO_LARGE, error.what());
    } catch (const std::runtime_error &error) {
        return cbridge::fail(CB_OPEN_FAILED, error.what());
    }
    *out_capture = capture.release();
    return CB_OK;
}

CB_Status finishOpen(std::unique_ptr<CB_Capture> capture, CB_Capture **out_capture, const std::string &what) {
    if (!capture->capture->isOpened()) {
        return cbridge::fail(CB_OPEN_FAILED, "could not open " + what);
    }
    *out_capture = capture.release();
    return CB_OK;
}

}  // namespace

extern "C" CB_Status CB_Capture_open(const char *path, int64_t max_pixels, CB_Capture **out_capture) {
    CB_TRY
    CB_REQUIRE(path != nullptr && *path != '\0' && out_capture != nullptr, "CB_Capture_open: empty path");
    CB_REQUIRE(max_pixels >= 0, "CB_Capture_open: negative pixel limit");
    *out_capture = nullptr;
    cbridge::MediaDecoderOptions options;
    options.timeoutMs = defaultTimeoutMs;
    // Files: one thread. A file scan keeps every core busy with its own threads (the read-ahead, region reads
    // side by side), and frame threading costs a tenth more CPU a frame: the 1-minute 720p barcodes-only scan
    // took 5.05 against 5.65 s (CPU 8.9 against 9.5 s), 1080p barcodes-only 2.59 against 2.74 s, 1080p text
    // and barcodes 8.6 against 9.1 s, two 720p and 1080p dev scenes the same (alternated, medians of 2-3).
    options.threadCount = 1;
    options.maxPixels = max_pixels;
    return openDecoder(path, options, out_capture);
    CB_CATCH
}

extern "C" CB_Status CB_Capture_open_stream(const char *url, int timeout_ms, int64_t max_pixels,
                                            CB_Capture **out_capture) {
    CB_TRY
    CB_REQUIRE(url != nullptr && *url != '\0' && out_capture != nullptr, "CB_Capture_open_stream: empty URL");
    CB_REQUIRE(timeout_ms > 0, "CB_Capture_open_stream: timeout must be positive");
    CB_REQUIRE(max_pixels >= 0, "CB_Capture_open_stream: negative pixel limit");
    *out_capture = nullptr;
    cbridge::MediaDecoderOptions options;
    options.live = true;
    options.timeoutMs = timeout_ms;
    options.threadCount = decoderThreads();
    options.maxPixels = max_pixels;
    return openDecoder(url, options, out_capture);
    CB_CATCH
}

extern "C" CB_Status CB_Capture_open_camera(int index, int width, int height, double fps, CB_Capture **out_capture) {
    CB_TRY
    CB_REQUIRE(index >= 0 && out_capture != nullptr, "CB_Capture_open_camera: negative index");
    CB_REQUIRE(width >= 0 && height >= 0 && fps >= 0, "CB_Capture_open_camera: negative size or rate");
    *out_capture = nullptr;
    auto capture = std::make_unique<CB_Capture>();
    capture->capture = cbridge::newVideoCapture();
    std::vector<int> mode;
    if (width > 0 && height > 0) {
        mode.insert(mode.end(), {cv::CAP_PROP_FRAME_WIDTH, width, cv::CAP_PROP_FRAME_HEIGHT, height});
    }
    capture->capture->open(index, cv::CAP_V4L2, mode);
    if (capture->capture->isOpened() && fps > 0) {
        capture->capture->set(cv::CAP_PROP_FPS, fps);
    }
    return finishOpen(std::move(capture), out_capture, "camera " + std::to_string(index));
    CB_CATCH
}

extern "C" void CB_Capture_delete(CB_Capture *capture) {
    if (capture == nullptr) {
        return;
    }
    try {
        capture->decoder.reset();
        if (capture->capture != nullptr) {
            capture->capture->release();
        }
    } catch (...) {
        // Releasing a broken stream may throw; the handle is going away either way.
    }
    delete capture;
}

extern "C" CB_Status CB_Capture_info(const CB_Capture *capture, CB_CaptureInfo *out_info) {
    CB_TRY
    CB_REQUIRE(capture != nullptr && out_info != nullptr, "CB_Capture_info: NULL argument");
    if (capture->decoder != nullptr) {
        *out_info = capture->decoder->info();
        return CB_OK;
    }
    const cv::VideoCapture &source = *capture->capture;
    out_info->width = static_cast<int>(source.get(cv::CAP_PROP_FRAME_WIDTH));
    out_info->height = static_cast<int>(source.get(cv::CAP_PROP_FRAME_HEIGHT));
    const double fps = source.get(cv::CAP_PROP_FPS);
    out_info->fps = (fps > 0 && fps < 1000) ? fps : 0;
    const double count = source.get(cv::CAP_PROP_FRAME_COUNT);
    out_info->frame_count = count > 0 ? static_cast<int64_t>(count) : -1;
    return CB_OK;
    CB_CATCH
}

extern "C" CB_Status CB_Capture_read(CB_Capture *capture, CB_Image **out_image, double *out_seconds) {
    CB_TRY
    CB_REQUIRE(capture != nullptr && out_image != nullptr, "CB_Capture_read: NULL argument");
    *out_image = nullptr;
    if (capture->decoder != nullptr) {
        try {
            *out_image = capture->decoder->read(out_seconds);
        } catch (const cbridge::PictureTooLarge &error) {
            return cbridge::fail(CB_TOO_LARGE, error.what());
        } catch (const cbridge::ReadFailure &error) {
            return cbridge::fail(CB_OPEN_FAILED, error.what());
        }
        return *out_image != nullptr ? CB_OK : cbridge::fail(CB_END_OF_STREAM, "end of stream");
    }
    cv::Mat frame;
    if (!capture->capture->read(frame) || frame.empty()) {
        return cbridge::fail(CB_END_OF_STREAM, "end of stream");
    }
    if (out_seconds != nullptr) {
        *out_seconds = capture->capture->get(cv::CAP_PROP_POS_MSEC) / 1000.0;
    }
    // A camera may deliver gray or with alpha; a CB_Image made from a colour picture takes 8-bit BGR.
    if (frame.channels() == 1) {
        cv::cvtColor(frame, frame, cv::COLOR_GRAY2BGR);
    } else if (frame.channels() == 4) {
        cv::cvtColor(frame, frame, cv::COLOR_BGRA2BGR);
    }
    if (frame.depth() != CV_8U) {
        frame.convertTo(frame, CV_8U);
    }
    *out_image = new CB_Image{std::move(frame)};
    return CB_OK;
    CB_CATCH
}

extern "C" CB_Status CB_Capture_undecodable_frames(const CB_Capture *capture, int64_t *out_count) {
    CB_TRY
    CB_REQUIRE(capture != nullptr && out_count != nullptr, "CB_Capture_undecodable_frames: NULL argument");
    // A camera's frames come whole from V4L2, or not at all: none is refused by a decoder here.
    *out_count = capture->decoder != nullptr ? capture->decoder->undecodableFrames() : 0;
    return CB_OK;
    CB_CATCH
}
