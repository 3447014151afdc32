// Video files through cv::VideoWriter's FFmpeg backend, for annotated output; the extension picks the codec.
// videoio is loaded when first used (OpenCVOnDemand.hpp).
#include "Internal.hpp"
#include "OpenCVOnDemand.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <string>
#include <vector>

struct CB_VideoWriter {
    std::unique_ptr<cv::VideoWriter> writer;
    std::string path;
    cv::Size frameSize;    // what callers hand in
    cv::Size encodedSize;  // frameSize rounded up to even
    std::string fourcc;
    bool closed = false;
};

namespace {

std::string lowercaseExtension(const std::string &path) {
    const auto dot = path.find_last_of('.');
    const auto slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) {
        return "";
    }
    std::string extension = path.substr(dot);
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char character) { return static_cast<char>(std::tolower(character)); });
    return extension;
}

/// Codecs to try, best first. H.264 keeps thin outlines and small label text sharp at a modest size and
/// plays everywhere; MPEG-4 Part 2 is the fallback when OpenCV's FFmpeg has no H.264 encoder.
std::vector<std::string> codecsFor(const std::string &extension) {
    if (extension == ".mp4" || extension == ".mov" || extension == ".mkv") {
        return {"avc1", "mp4v"};
    }
    if (extension == ".avi") {
        return {"MJPG"};
    }
    return {};
}

/// cv::VideoWriter::fourcc, which is videoio's to call: the four characters, the first in the lowest byte.
int fourccCode(const std::string &codec) {
    return static_cast<int>(static_cast<uint32_t>(static_cast<unsigned char>(codec[0])) |
                            static_cast<uint32_t>(static_cast<unsigned char>(codec[1])) << 8 |
                            static_cast<uint32_t>(static_cast<unsigned char>(codec[2])) << 16 |
                            static_cast<uint32_t>(static_cast<unsigned char>(codec[3])) << 24);
}

/// cv::VideoWriter reports no write errors (write and release return void): a file that is missing or
/// empty after release is the one sign left that the encoder failed.
bool fileHasContent(const std::string &path) {
    struct stat status {};
    return ::stat(path.c_str(), &status) == 0 && status.st_size > 0;
}

}  // namespace

extern "C" CB_Status CB_VideoWriter_open(const char *path, double fps, int width, int height,
                                         CB_VideoWriter **out_writer) {
    CB_TRY
    CB_REQUIRE(out_writer != nullptr && path != nullptr && *path != '\0',
               "CB_VideoWriter_open: NULL argument or empty path");
    *out_writer = nullptr;
    CB_REQUIRE(fps > 0 && fps <= 1000, "CB_VideoWriter_open: fps must be in (0, 1000]");
    CB_REQUIRE(width >= 1 && height >= 1 && width <= 16384 && height <= 16384,
               "CB_VideoWriter_open: width and height must be in 1...16384");
    const auto codecs = codecsFor(lowercaseExtension(path));
    if (codecs.empty()) {
        return cbridge::fail(CB_INVALID_ARGUMENT,
                             std::string("no video format for '") + path + "': use .mp4, .mkv, .mov or .avi");
    }
    auto video = std::make_unique<CB_VideoWriter>();
    video->writer = cbridge::newVideoWriter();
    video->path = path;
    video->frameSize = cv::Size(width, height);
    // H.264 and MPEG-4 work on 4:2:0 macroblocks and reject odd sizes; camera and image sizes can be odd.
    video->encodedSize = cv::Size(width + width % 2, height + height % 2);
    for (const auto &codec : codecs) {
        const int fourcc = fourccCode(codec);
        // The FFmpeg backend only: GStreamer would be chosen first if its plugins were installed.
        if (cbridge::openVideoWriter(*video->writer, path, cv::CAP_FFMPEG, fourcc, fps, video->encodedSize, true)) {
            video->fourcc = codec;
            break;
        }
    }
    if (!video->writer->isOpened()) {
        std::string tried;
        for (const auto &codec : codecs) {
            tried += (tried.empty() ? "" : ", ") + codec;
        }
        return cbridge::fail(CB_OPEN_FAILED, std::string("cannot open video '") + path + "' for writing with " + tried +
                                                 ": is the directory there and writable?");
    }
    *out_writer = video.release();
    return CB_OK;
    CB_CATCH
}

extern "C" const char *CB_VideoWriter_fourcc(const CB_VideoWriter *writer) {
    return writer == nullptr ? "" : writer->fourcc.c_str();
}

namespace {

/// `frame` scaled to fit `size` whole, its aspect kept, centred on black: a stream whose resolution changes
/// mid-way goes on in the file it started, which cannot change its own size.
cv::Mat letterboxed(const cv::Mat &frame, cv::Size size) {
    const double scale =
        std::min(static_cast<double>(size.width) / frame.cols, static_cast<double>(size.height) / frame.rows);
    cv::Mat scaled = cbridge::resized(frame, scale, scale < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
    cv::Mat canvas(size, CV_8UC3, cv::Scalar::all(0));
    const int width = std::min(scaled.cols, size.width), height = std::min(scaled.rows, size.height);
    scaled(cv::Rect(0, 0, width, height))
        .copyTo(canvas(cv::Rect((size.width - width) / 2, (size.height - height) / 2, width, height)));
    return canvas;
}

}  // namespace

extern "C" CB_Status CB_VideoWriter_write(CB_VideoWriter *writer, const CB_Image *image) {
    CB_TRY
    CB_REQUIRE(writer != nullptr && image != nullptr, "CB_VideoWriter_write: NULL argument");
    CB_REQUIRE(!writer->closed, "CB_VideoWriter_write: the video is already finished");
    cv::Mat frame = image->bgr();
    if (frame.size() != writer->frameSize) {
        frame = letterboxed(frame, writer->frameSize);
    }
    if (writer->encodedSize == frame.size()) {
        writer->writer->write(frame);
    } else {
        cv::Mat padded;
        cv::copyMakeBorder(frame, padded, 0, writer->encodedSize.height - frame.rows, 0,
                           writer->encodedSize.width - frame.cols, cv::BORDER_REPLICATE);
        writer->writer->write(padded);
    }
    return CB_OK;
    CB_CATCH
}

extern "C" CB_Status CB_VideoWriter_close(CB_VideoWriter *writer) {
    CB_TRY
    CB_REQUIRE(writer != nullptr, "CB_VideoWriter_close: NULL writer");
    if (writer->closed) {
        return CB_OK;
    }
    writer->closed = true;
    // release() writes the trailer (the MP4 index); without it most players refuse the file.
    writer->writer->release();
    if (!fileHasContent(writer->path)) {
        return cbridge::fail(CB_ENGINE_FAILED, "the encoder left no data in '" + writer->path + "'");
    }
    return CB_OK;
    CB_CATCH
}

extern "C" void CB_VideoWriter_delete(CB_VideoWriter *writer) {
    if (writer == nullptr) {
        return;
    }
    // release() flushes the encoder and may throw; nothing may escape a delete.
    try {
        writer->writer->release();
    } catch (...) {
    }
    delete writer;
}
