// Video files through cv::VideoWriter's FFmpeg backend; the extension picks the codec.
#include "Internal.hpp"

#include <opencv2/videoio.hpp>

#include <algorithm>
#include <cctype>
#include <memory>
#include <vector>

using scenerender::fail;

struct SR_VideoWriter {
    cv::VideoWriter writer;
    cv::Size size;
    std::string fourcc;
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

/// Codecs to try, best first. H.264 keeps small QR modules decodable at a modest file size; MPEG-4
/// Part 2 is the fallback when OpenCV's FFmpeg has no H.264 encoder. Motion JPEG (intra only, AVI)
/// is the choice when every frame must survive compression on its own.
std::vector<std::string> codecsFor(const std::string &extension) {
    if (extension == ".mp4" || extension == ".mov" || extension == ".mkv") {
        return {"avc1", "mp4v"};
    }
    if (extension == ".avi") {
        return {"MJPG"};
    }
    return {};
}

}  // namespace

extern "C" SR_Status SR_VideoWriter_open(const char *path, double fps, int width, int height,
                                         SR_VideoWriter **out_writer) {
    SR_TRY
    SR_REQUIRE(out_writer != nullptr && path != nullptr && *path != '\0',
               "SR_VideoWriter_open: NULL argument or empty path");
    *out_writer = nullptr;
    SR_REQUIRE(fps > 0 && fps <= 1000, "SR_VideoWriter_open: fps must be in (0, 1000]");
    SR_REQUIRE(width >= 16 && height >= 16 && width <= 16384 && height <= 16384,
               "SR_VideoWriter_open: width and height must be in 16...16384");
    // H.264 and MPEG-4 encoders work on 4:2:0 macroblocks and reject odd sizes.
    SR_REQUIRE(width % 2 == 0 && height % 2 == 0, "SR_VideoWriter_open: width and height must be even");
    const std::string extension = lowercaseExtension(path);
    const auto codecs = codecsFor(extension);
    if (codecs.empty()) {
        return fail(SR_UNSUPPORTED, std::string("no video codec for '") + path + "': use .mp4, .mkv, .mov or .avi");
    }
    auto video = std::make_unique<SR_VideoWriter>();
    video->size = cv::Size(width, height);
    for (const auto &codec : codecs) {
        const int fourcc = cv::VideoWriter::fourcc(codec[0], codec[1], codec[2], codec[3]);
        // The FFmpeg backend only: GStreamer would be picked up too if its plugins were installed.
        if (video->writer.open(path, cv::CAP_FFMPEG, fourcc, fps, video->size, true)) {
            video->fourcc = codec;
            break;
        }
    }
    if (!video->writer.isOpened()) {
        std::string tried;
        for (const auto &codec : codecs) {
            tried += (tried.empty() ? "" : ", ") + codec;
        }
        return fail(SR_IO_FAILED, std::string("cannot open video '") + path + "' for writing with " + tried +
                                      ": is the directory there and writable?");
    }
    *out_writer = video.release();
    return SR_OK;
    SR_CATCH
}

extern "C" const char *SR_VideoWriter_fourcc(const SR_VideoWriter *writer) {
    return writer == nullptr ? "" : writer->fourcc.c_str();
}

extern "C" SR_Status SR_VideoWriter_write(SR_VideoWriter *writer, const SR_Canvas *canvas) {
    SR_TRY
    SR_REQUIRE(writer != nullptr && canvas != nullptr, "SR_VideoWriter_write: NULL argument");
    SR_REQUIRE(writer->writer.isOpened(), "SR_VideoWriter_write: the writer is closed");
    SR_REQUIRE(canvas->pixels.size() == writer->size, "SR_VideoWriter_write: canvas size differs from the video's");
    writer->writer.write(canvas->pixels);
    return SR_OK;
    SR_CATCH
}

extern "C" SR_Status SR_VideoWriter_close(SR_VideoWriter *writer) {
    SR_TRY
    SR_REQUIRE(writer != nullptr, "SR_VideoWriter_close: NULL writer");
    writer->writer.release();
    return SR_OK;
    SR_CATCH
}

extern "C" void SR_VideoWriter_delete(SR_VideoWriter *writer) {
    if (writer == nullptr) {
        return;
    }
    // release() flushes the encoder and may throw; nothing may escape a delete.
    try {
        writer->writer.release();
    } catch (...) {
    }
    delete writer;
}
