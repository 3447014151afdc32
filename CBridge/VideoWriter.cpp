// Video files for annotated output, encoded and muxed by FFmpeg's libavcodec and libavformat directly; the
// extension picks the codec. cv::VideoWriter reported no write error (its write and release return void, and its
// FFmpeg backend ignores what av_write_trailer returns): on a full disk it left an MP4 without its index (no
// `moov`, unplayable) that looked finished. Here every packet written, the trailer and the closing of the file are
// checked, and the first failure is kept: every later call returns it.
#include "Internal.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cctype>
#include <climits>
#include <memory>
#include <string>
#include <vector>

namespace {

/// One codec to try: its fourcc (what CB_VideoWriter_fourcc reports), FFmpeg's id, the pixel format it encodes and
/// its bit rate in bits a pixel a frame (0: the encoder's own rate control).
struct Codec {
    const char *fourcc;
    AVCodecID id;
    AVPixelFormat pixels;
    double bitsPerPixel;
};

/// Codecs to try, best first. H.264 keeps thin outlines and small label text sharp at a modest size and plays
/// everywhere; MPEG-4 Part 2 is the fallback when FFmpeg has no H.264 encoder. The settings are those
/// cv::VideoWriter's FFmpeg backend (OpenCV 4.6) used: libx264 at its defaults (CRF 23), MPEG-4 at one bit a pixel
/// and Motion JPEG at three, full-range (JPEG) 4:2:0.
std::vector<Codec> codecsFor(const std::string &extension) {
    if (extension == ".mp4" || extension == ".mov" || extension == ".mkv") {
        return {{"avc1", AV_CODEC_ID_H264, AV_PIX_FMT_YUV420P, 0}, {"mp4v", AV_CODEC_ID_MPEG4, AV_PIX_FMT_YUV420P, 1}};
    }
    if (extension == ".avi") {
        return {{"MJPG", AV_CODEC_ID_MJPEG, AV_PIX_FMT_YUVJ420P, 3}};
    }
    return {};
}

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

std::string describe(int error) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(error, text, sizeof text);
    return text;
}

struct FormatCloser {
    void operator()(AVFormatContext *format) const {
        if (format->pb != nullptr) {
            avio_closep(&format->pb);
        }
        avformat_free_context(format);
    }
};
struct CodecFreer {
    void operator()(AVCodecContext *codec) const { avcodec_free_context(&codec); }
};
struct FrameFreer {
    void operator()(AVFrame *frame) const { av_frame_free(&frame); }
};
struct PacketFreer {
    void operator()(AVPacket *packet) const { av_packet_free(&packet); }
};
struct ScalerFreer {
    void operator()(SwsContext *scaler) const { sws_freeContext(scaler); }
};

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

struct CB_VideoWriter {
    std::string path;
    cv::Size frameSize;    // what callers hand in
    cv::Size encodedSize;  // frameSize rounded up to even
    std::string fourcc;
    // Declared in the order they are made; freed in reverse, the file closed last.
    std::unique_ptr<AVFormatContext, FormatCloser> format;
    std::unique_ptr<AVCodecContext, CodecFreer> codec;
    AVStream *stream = nullptr;  // format's
    std::unique_ptr<AVFrame, FrameFreer> frame;
    std::unique_ptr<AVPacket, PacketFreer> packet;
    std::unique_ptr<SwsContext, ScalerFreer> scaler;
    int64_t nextTimestamp = 0;
    bool closed = false;
    /// The first failure, returned by every call after it; empty while all went well.
    std::string failure;

    /// Records `what` failing with FFmpeg's `error` (the first failure only) and returns it as a CB_Status.
    CB_Status failed(const std::string &what, int error) {
        if (failure.empty()) {
            failure = what + ": " + describe(error);
        }
        return cbridge::fail(CB_ENGINE_FAILED, failure);
    }

    /// Sends `picture` to the encoder (nullptr: the end, flushing it) and writes every packet it hands back.
    CB_Status encode(const AVFrame *picture) {
        int status = avcodec_send_frame(codec.get(), picture);
        if (status < 0) {
            return failed("encoding a frame failed", status);
        }
        for (;;) {
            status = avcodec_receive_packet(codec.get(), packet.get());
            if (status == AVERROR(EAGAIN) || status == AVERROR_EOF) {
                return CB_OK;
            }
            if (status < 0) {
                return failed("encoding a frame failed", status);
            }
            packet->stream_index = stream->index;
            av_packet_rescale_ts(packet.get(), codec->time_base, stream->time_base);
            // Takes the packet's reference. A write that fails in the file's buffer is reported here or by a
            // later call; pb->error keeps it.
            status = av_interleaved_write_frame(format.get(), packet.get());
            if (status >= 0 && format->pb->error < 0) {
                status = format->pb->error;
            }
            if (status < 0) {
                return failed("writing the video failed", status);
            }
        }
    }

    /// Flushes the encoder, writes the trailer (an MP4's index) and closes the file, each checked.
    CB_Status finish() {
        if (encode(nullptr) != CB_OK) {
            return CB_ENGINE_FAILED;
        }
        int status = av_write_trailer(format.get());
        if (status >= 0 && format->pb->error < 0) {
            status = format->pb->error;
        }
        if (status < 0) {
            return failed("writing the end of the video failed", status);
        }
        // avio_closep flushes what is still buffered and returns the first write error.
        status = avio_closep(&format->pb);
        if (status < 0) {
            return failed("writing the end of the video failed", status);
        }
        return CB_OK;
    }
};

namespace {

/// Opens the encoder of `candidate` for `video`'s size at `rate`; nothing when this FFmpeg has none or it refuses.
std::unique_ptr<AVCodecContext, CodecFreer> openEncoder(const Codec &candidate, const CB_VideoWriter &video,
                                                        AVRational rate, double fps) {
    const AVCodec *encoder = avcodec_find_encoder(candidate.id);
    if (encoder == nullptr) {
        return nullptr;
    }
    std::unique_ptr<AVCodecContext, CodecFreer> codec(avcodec_alloc_context3(encoder));
    if (codec == nullptr) {
        throw std::bad_alloc();
    }
    codec->width = video.encodedSize.width;
    codec->height = video.encodedSize.height;
    codec->pix_fmt = candidate.pixels;
    codec->time_base = av_inv_q(rate);
    codec->framerate = rate;
    codec->thread_count = 0;  // FFmpeg's choice: x264 encodes on every core
    if (candidate.bitsPerPixel > 0) {
        codec->bit_rate = static_cast<int64_t>(
            std::min(candidate.bitsPerPixel * fps * video.encodedSize.width * video.encodedSize.height, INT_MAX / 2.0));
        codec->gop_size = 12;
    }
    if (video.format->oformat->flags & AVFMT_GLOBALHEADER) {
        codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;  // MP4, MOV, MKV keep the parameter sets in the header
    }
    if (avcodec_open2(codec.get(), encoder, nullptr) < 0) {
        return nullptr;
    }
    return codec;
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
    video->path = path;
    video->frameSize = cv::Size(width, height);
    // H.264 and MPEG-4 work on 4:2:0 macroblocks and reject odd sizes; camera and image sizes can be odd.
    video->encodedSize = cv::Size(width + width % 2, height + height % 2);
    AVFormatContext *format = nullptr;
    int status = avformat_alloc_output_context2(&format, nullptr, nullptr, path);
    if (status < 0 || format == nullptr) {
        return cbridge::fail(CB_INVALID_ARGUMENT,
                             std::string("no video format for '") + path + "': " + describe(status));
    }
    video->format.reset(format);
    // MPEG-4 Part 2 allows time bases of at most 16 bits: 29.97 is 30000/1001.
    const AVRational rate = av_d2q(fps, 65535);
    std::string tried;
    for (const auto &candidate : codecs) {
        video->codec = openEncoder(candidate, *video, rate, fps);
        if (video->codec != nullptr) {
            video->fourcc = candidate.fourcc;
            break;
        }
        tried += (tried.empty() ? "" : ", ") + std::string(candidate.fourcc);
    }
    if (video->codec == nullptr) {
        return cbridge::fail(CB_OPEN_FAILED, "this FFmpeg cannot encode " + tried);
    }
    video->stream = avformat_new_stream(format, nullptr);
    if (video->stream == nullptr) {
        throw std::bad_alloc();
    }
    status = avcodec_parameters_from_context(video->stream->codecpar, video->codec.get());
    if (status < 0) {
        return cbridge::fail(CB_ENGINE_FAILED, describe(status));
    }
    video->stream->time_base = video->codec->time_base;
    video->stream->avg_frame_rate = rate;
    status = avio_open(&format->pb, path, AVIO_FLAG_WRITE);
    if (status < 0) {
        return cbridge::fail(CB_OPEN_FAILED, "cannot open it for writing: " + describe(status));
    }
    status = avformat_write_header(format, nullptr);
    if (status >= 0 && format->pb->error < 0) {
        status = format->pb->error;
    }
    if (status < 0) {
        return cbridge::fail(CB_OPEN_FAILED, "writing the start of the video failed: " + describe(status));
    }
    video->frame.reset(av_frame_alloc());
    video->packet.reset(av_packet_alloc());
    if (video->frame == nullptr || video->packet == nullptr) {
        throw std::bad_alloc();
    }
    video->frame->format = video->codec->pix_fmt;
    video->frame->width = video->encodedSize.width;
    video->frame->height = video->encodedSize.height;
    // FFmpeg sizes the planes itself: swscale writes past rows padded only to 64 bytes (FACTS).
    if (av_frame_get_buffer(video->frame.get(), 0) < 0) {
        throw std::bad_alloc();
    }
    video->scaler.reset(sws_getContext(video->encodedSize.width, video->encodedSize.height, AV_PIX_FMT_BGR24,
                                       video->encodedSize.width, video->encodedSize.height, video->codec->pix_fmt,
                                       SWS_BICUBIC, nullptr, nullptr, nullptr));
    if (video->scaler == nullptr) {
        return cbridge::fail(CB_ENGINE_FAILED, "cannot convert BGR to the encoder's pixel format");
    }
    *out_writer = video.release();
    return CB_OK;
    CB_CATCH
}

extern "C" const char *CB_VideoWriter_fourcc(const CB_VideoWriter *writer) {
    return writer == nullptr ? "" : writer->fourcc.c_str();
}

extern "C" CB_Status CB_VideoWriter_write(CB_VideoWriter *writer, const CB_Image *image) {
    CB_TRY
    CB_REQUIRE(writer != nullptr && image != nullptr, "CB_VideoWriter_write: NULL argument");
    CB_REQUIRE(!writer->closed, "CB_VideoWriter_write: the video is already finished");
    if (!writer->failure.empty()) {
        return cbridge::fail(CB_ENGINE_FAILED, writer->failure);
    }
    cv::Mat frame = image->bgr();
    if (frame.size() != writer->frameSize) {
        frame = letterboxed(frame, writer->frameSize);
    }
    if (writer->encodedSize != frame.size()) {
        cv::Mat padded;
        cv::copyMakeBorder(frame, padded, 0, writer->encodedSize.height - frame.rows, 0,
                           writer->encodedSize.width - frame.cols, cv::BORDER_REPLICATE);
        frame = padded;
    }
    // The encoder may still hold the last picture (x264's lookahead): write into buffers of the frame's own.
    const int status = av_frame_make_writable(writer->frame.get());
    if (status < 0) {
        return writer->failed("encoding a frame failed", status);
    }
    const uint8_t *source[4] = {frame.data, nullptr, nullptr, nullptr};
    const int sourceStride[4] = {static_cast<int>(frame.step), 0, 0, 0};
    sws_scale(writer->scaler.get(), source, sourceStride, 0, frame.rows, writer->frame->data, writer->frame->linesize);
    writer->frame->pts = writer->nextTimestamp++;
    return writer->encode(writer->frame.get());
    CB_CATCH
}

extern "C" CB_Status CB_VideoWriter_close(CB_VideoWriter *writer) {
    CB_TRY
    CB_REQUIRE(writer != nullptr, "CB_VideoWriter_close: NULL writer");
    if (!writer->closed) {
        writer->closed = true;
        if (writer->failure.empty()) {
            writer->finish();
        }
    }
    return writer->failure.empty() ? CB_OK : cbridge::fail(CB_ENGINE_FAILED, writer->failure);
    CB_CATCH
}

extern "C" void CB_VideoWriter_delete(CB_VideoWriter *writer) {
    if (writer == nullptr) {
        return;
    }
    // A video never closed is finished as well as it can be, as cv::VideoWriter's destructor did; nothing may
    // escape a delete, and its caller can no longer hear of a failure.
    try {
        if (!writer->closed && writer->failure.empty()) {
            writer->finish();
        }
    } catch (...) {
    }
    delete writer;
}
