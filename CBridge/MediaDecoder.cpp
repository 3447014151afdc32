// Opening a video file or stream for MediaDecoder: the demuxer's settings, the video stream and its codec, the
// picture's rotation, and what the container says of the video.
#include "MediaDecoder.hpp"
#include "FFmpegValues.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>
}

#include <opencv2/core.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace cbridge {

namespace {

// Live streams: with FFmpeg's defaults avformat_find_stream_info reads ~20 frames (0.7 s of a 30 fps stream) to
// estimate the frame rate before the first frame is handed out. Skipping that estimate and analysing 0.1 s at
// most gets the first frame of a tcp MPEG-TS stream in ~50 ms. The probe size stays at its default (5 MB): a
// stream joined between key frames has no parameter sets, hence no picture size, until its next key frame.
constexpr const char *liveAnalyzeMicroseconds = "100000";
constexpr const char *liveFramesForRate = "0";

/// The demuxer's and protocol's settings for opening a source; the caller frees them (av_dict_free).
AVDictionary *inputSettings(const MediaDecoderOptions &options) {
    AVDictionary *settings = nullptr;
    // As OpenCV's FFmpeg backend: OPENCV_FFMPEG_CAPTURE_OPTIONS ("key;value|key;value") goes to the demuxer and
    // protocol (e.g. "rtsp_flags;listen"); without it RTSP prefers TCP, which loses no packets.
    if (const char *userSettings = std::getenv("OPENCV_FFMPEG_CAPTURE_OPTIONS")) {
        av_dict_parse_string(&settings, userSettings, ";", "|", 0);
    } else {
        av_dict_set(&settings, "rtsp_flags", "prefer_tcp", 0);
    }
    if (options.live) {
        av_dict_set(&settings, "analyzeduration", liveAnalyzeMicroseconds, AV_DICT_DONT_OVERWRITE);
        av_dict_set(&settings, "fpsprobesize", liveFramesForRate, AV_DICT_DONT_OVERWRITE);
        // Not fflags=nobuffer: it drops the packets read while probing, the first key frame among them, and the
        // first frame then waits for the next key frame (measured: 1.05 s instead of 0.05 s at 30 frames a GOP).
    }
    return settings;
}

/// Clockwise degrees the picture must turn to display upright (phone videos), as ffmpeg's autorotate and players
/// turn it; 0 for anything but quarter turns. OpenCV 4.6 turns them too (CAP_PROP_ORIENTATION_AUTO), but omits
/// the sign below: its 90 and 270 degree frames came out upside down (measured against `ffmpeg -autorotate`).
int rotationOf(const AVStream *stream) {
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 29, 100)
    const AVPacketSideData *side =
        av_packet_side_data_get(stream->codecpar->coded_side_data, stream->codecpar->nb_coded_side_data,
                                AV_PKT_DATA_DISPLAYMATRIX);
    const auto *matrix = side != nullptr ? reinterpret_cast<const int32_t *>(side->data) : nullptr;
#else
    const auto *matrix =
        reinterpret_cast<const int32_t *>(av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nullptr));
#endif
    if (matrix == nullptr) {
        return 0;
    }
    // av_display_rotation_get is counter-clockwise (fftools' get_rotation negates it the same way).
    const double counterClockwise = av_display_rotation_get(matrix);
    if (std::isnan(counterClockwise)) {
        return 0;
    }
    const int degrees = ((-static_cast<int>(std::lround(counterClockwise)) % 360) + 360) % 360;
    return degrees % 90 == 0 ? degrees : 0;
}

}  // namespace

void MediaDecoder::Deadline::restart(int timeoutMs) {
    at = timeoutMs > 0 ? std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs)
                       : std::chrono::steady_clock::time_point::max();
}

int MediaDecoder::Deadline::interrupt(void *deadline) { return static_cast<const Deadline *>(deadline)->passed(); }

void MediaDecoder::FormatCloser::operator()(AVFormatContext *context) const { avformat_close_input(&context); }
void MediaDecoder::CodecFreer::operator()(AVCodecContext *context) const { avcodec_free_context(&context); }
void MediaDecoder::PacketFreer::operator()(AVPacket *packet) const { av_packet_free(&packet); }
void MediaDecoder::FrameFreer::operator()(AVFrame *frame) const { av_frame_free(&frame); }
void MediaDecoder::ScalerFreer::operator()(SwsContext *scaler) const { sws_freeContext(scaler); }

MediaDecoder::~MediaDecoder() = default;

std::unique_ptr<MediaDecoder> MediaDecoder::open(const std::string &url, const MediaDecoderOptions &options) {
    std::unique_ptr<MediaDecoder> decoder(new MediaDecoder());
    decoder->options_ = options;
    decoder->packet_.reset(av_packet_alloc());
    decoder->frame_.reset(av_frame_alloc());
    if (decoder->packet_ == nullptr || decoder->frame_ == nullptr) {
        throw std::bad_alloc();
    }
    decoder->openInput(url);
    const AVCodec *codec = decoder->chooseVideoStream();
    decoder->openCodec(codec);
    return decoder;
}

void MediaDecoder::openInput(const std::string &url) {
    AVFormatContext *format = avformat_alloc_context();
    if (format == nullptr) {
        throw std::bad_alloc();
    }
    // Set before opening: the deadline covers connecting, probing and then every read.
    format->interrupt_callback.callback = &Deadline::interrupt;
    format->interrupt_callback.opaque = &deadline_;
    deadline_.restart(options_.timeoutMs);
    AVDictionary *settings = inputSettings(options_);
    // On failure avformat_open_input frees `format` itself.
    int status = avformat_open_input(&format, url.c_str(), nullptr, &settings);
    av_dict_free(&settings);
    if (status < 0) {
        throw openFailure(status);
    }
    format_.reset(format);
    // The sizes the headers announce (a GIF's screen, an AVI's), kept: a probe refused for its size below leaves
    // the stream 0 x 0.
    for (unsigned index = 0; index < format->nb_streams; ++index) {
        const AVCodecParameters *parameters = format->streams[index]->codecpar;
        announcedSizes_.push_back({parameters->width, parameters->height});
    }
    // Probing decodes a frame of some streams (MJPEG, to learn its pixel format): it too is held to the limit,
    // so a 12000 x 12000 frame is never decoded only to be refused (FFmpeg's own check, before allocating).
    std::vector<AVDictionary *> probing(format->nb_streams, nullptr);
    if (options_.maxPixels > 0) {
        const long long limit = std::min<long long>(options_.maxPixels, INT_MAX);
        for (auto &settings : probing) {
            av_dict_set_int(&settings, "max_pixels", limit, 0);
        }
    }
    status = avformat_find_stream_info(format, probing.empty() ? nullptr : probing.data());
    for (auto &settings : probing) {
        av_dict_free(&settings);
    }
    if (status < 0) {
        throw openFailure(status);
    }
}

void MediaDecoder::checkPixels(int width, int height) const {
    if (const auto tooLarge = pixelLimitExceeded(width, height, options_.maxPixels)) {
        throw PictureTooLarge(*tooLarge);
    }
}

int MediaDecoder::allocatePicture(AVCodecContext *context, AVFrame *frame, int flags) {
    auto *decoder = static_cast<MediaDecoder *>(context->opaque);
    if (pixelLimitExceeded(frame->width, frame->height, decoder->options_.maxPixels)) {
        decoder->oversizedWidth_ = frame->width;
        decoder->oversizedHeight_ = frame->height;
        return AVERROR(ENOMEM);
    }
    return avcodec_default_get_buffer2(context, frame, flags);
}

std::runtime_error MediaDecoder::openFailure(int error) const {
    // The deadline's interrupt makes FFmpeg answer "Immediate exit requested": say what happened instead.
    if (deadline_.passed()) {
        char text[96];
        std::snprintf(text, sizeof text, "nothing arrived within %g s (no server answered, or it sent no video)",
                      options_.timeoutMs / 1000.0);
        return std::runtime_error(text);
    }
    return std::runtime_error(describeAVError(error));
}

const AVCodec *MediaDecoder::chooseVideoStream() {
    AVFormatContext *format = format_.get();
    const AVCodec *codec = nullptr;
    streamIndex_ = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (streamIndex_ < 0 || codec == nullptr) {
        throw std::runtime_error(streamIndex_ == AVERROR_DECODER_NOT_FOUND ? "no decoder for its video"
                                                                           : "no video stream");
    }
    // The demuxer then skips audio, subtitles and data instead of reading them only to be dropped.
    for (unsigned index = 0; index < format->nb_streams; ++index) {
        if (static_cast<int>(index) != streamIndex_) {
            format->streams[index]->discard = AVDISCARD_ALL;
        }
    }
    rotationDegrees_ = rotationOf(format->streams[streamIndex_]);
    // The size the container announces, before any of it is decoded: its header's, else what probing found.
    const AVCodecParameters *parameters = format->streams[streamIndex_]->codecpar;
    checkPixels(parameters->width, parameters->height);
    if (static_cast<size_t>(streamIndex_) < announcedSizes_.size()) {
        checkPixels(announcedSizes_[streamIndex_].first, announcedSizes_[streamIndex_].second);
    }
    return codec;
}

void MediaDecoder::openCodec(const AVCodec *codec) {
    const AVStream *stream = format_->streams[streamIndex_];
    codec_.reset(avcodec_alloc_context3(codec));
    AVCodecContext *context = codec_.get();
    if (context == nullptr) {
        throw std::bad_alloc();
    }
    int status = avcodec_parameters_to_context(context, stream->codecpar);
    if (status < 0) {
        throw std::runtime_error(describeAVError(status));
    }
    context->pkt_timebase = stream->time_base;
    context->thread_count = options_.threadCount;
    if (options_.maxPixels > 0) {
        context->opaque = this;
        context->get_buffer2 = &MediaDecoder::allocatePicture;
    }
    if (options_.live) {
        // Frame threading holds back (threads - 1) decoded frames; slices of one frame decode in parallel at no
        // delay (x264 -tune zerolatency writes several per frame).
        context->thread_type = FF_THREAD_SLICE;
        context->flags |= AV_CODEC_FLAG_LOW_DELAY;
    } else {
        context->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
    }
    status = avcodec_open2(context, codec, nullptr);
    if (status < 0) {
        throw std::runtime_error(describeAVError(status));
    }
}

double MediaDecoder::framesPerSecond() const {
    const AVStream *stream = format_->streams[streamIndex_];
    // OpenCV 4.6 reports avg_frame_rate (measured: a 30 fps file with a pause reads 15.4, its avg_frame_rate).
    // A stream probed briefly may not have one yet; r_frame_rate, the codec's own rate, is the better guess.
    const double average = toDouble(stream->avg_frame_rate);
    return average > 0 ? average : toDouble(stream->r_frame_rate);
}

CB_CaptureInfo MediaDecoder::info() const {
    const AVStream *stream = format_->streams[streamIndex_];
    const bool quarterTurn = rotationDegrees_ == 90 || rotationDegrees_ == 270;
    CB_CaptureInfo info{};
    info.width = quarterTurn ? codec_->height : codec_->width;
    info.height = quarterTurn ? codec_->width : codec_->height;
    const double fps = framesPerSecond();
    info.fps = fps > 0 && fps < 1000 ? fps : 0;
    // As OpenCV: the container's count, else its duration times the rate.
    int64_t count = stream->nb_frames;
    if (count <= 0) {
        double seconds =
            format_->duration != AV_NOPTS_VALUE ? static_cast<double>(format_->duration) / AV_TIME_BASE : 0;
        if (seconds <= 0 && stream->duration != AV_NOPTS_VALUE) {
            seconds = static_cast<double>(stream->duration) * toDouble(stream->time_base);
        }
        count = static_cast<int64_t>(std::floor(seconds * fps + 0.5));
    }
    info.frame_count = count > 0 ? count : -1;
    return info;
}

}  // namespace cbridge
