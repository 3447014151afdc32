#include "MediaDecoder.hpp"

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

// A truncated MP4 makes the demuxer fail every sample past the cut, one call each; a damaged packet in a whole
// file fails once. OpenCV's FFmpeg backend gives up after as many failed reads in a row (OPENCV_FFMPEG_READ_ATTEMPTS).
constexpr int maxFailedReadsInARow = 4096;

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

std::string describe(int error) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(error, text, sizeof text);
    return text;
}

double toDouble(AVRational value) { return value.num == 0 || value.den == 0 ? 0.0 : av_q2d(value); }

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

/// Turns `source` clockwise by `degrees` (90, 180 or 270) into `destination`.
void rotatePlane(const cv::Mat &source, cv::Mat &destination, int degrees) {
    const int code = degrees == 90    ? cv::ROTATE_90_CLOCKWISE
                     : degrees == 180 ? cv::ROTATE_180
                                      : cv::ROTATE_90_COUNTERCLOCKWISE;
    cv::rotate(source, destination, code);
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
    return std::runtime_error(describe(error));
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
        throw std::runtime_error(describe(status));
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
        throw std::runtime_error(describe(status));
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

CB_Image *MediaDecoder::read(double *seconds) {
    if (ended_) {
        return nullptr;
    }
    deadline_.restart(options_.timeoutMs);
    AVCodecContext *context = codec_.get();
    int failedReads = 0;
    int refusalsInARow = 0;
    for (;;) {
        int status = avcodec_receive_frame(context, frame_.get());
        if (oversizedWidth_ != 0) {
            ended_ = true;
            checkPixels(static_cast<int>(oversizedWidth_), static_cast<int>(oversizedHeight_));
        }
        if (status == 0) {
            const AVStream *stream = format_->streams[streamIndex_];
            if (seconds != nullptr) {
                // OpenCV's CAP_PROP_POS_MSEC: media time from the stream's first timestamp, 0 when there is none.
                const int64_t start = stream->start_time != AV_NOPTS_VALUE ? stream->start_time : 0;
                const int64_t timestamp = frame_->best_effort_timestamp;
                *seconds = timestamp != AV_NOPTS_VALUE
                               ? static_cast<double>(timestamp - start) * toDouble(stream->time_base)
                               : 0.0;
            }
            CB_Image *image = imageFrom(frame_.get());
            av_frame_unref(frame_.get());
            ++framesRead_;
            return image;
        }
        if (status == AVERROR_EOF || (draining_ && status == AVERROR(EAGAIN))) {
            ended_ = true;
            if (!inputFailure_.empty()) {
                throw ReadFailure(inputFailure_);
            }
            return nullptr;
        }
        if (status != AVERROR(EAGAIN)) {
            // A frame the decoder refused (with frame threads its error comes out here, a few packets late): skipped
            // and counted, as ffmpeg does; asked again, the decoder goes on with what follows. A decoder that only
            // fails, whatever it is given, cannot go on.
            ++refusedPackets_;
            if (++refusalsInARow >= maxFailedReadsInARow) {
                ended_ = true;
                throw ReadFailure("decoding failed " + std::to_string(refusalsInARow) + " times in a row after frame " +
                                  std::to_string(framesRead_) + ": " + describe(status));
            }
            continue;
        }
        // EAGAIN: the decoder wants another packet.
        if (deadline_.passed()) {
            // A stream that trickles but never completes a frame, or a file that stopped arriving.
            drainAfterInputFailure(AVERROR_EXIT);
            continue;
        }
        status = av_read_frame(format_.get(), packet_.get());
        if (status == AVERROR(EAGAIN)) {
            continue;
        }
        if (status == AVERROR_INVALIDDATA && ++failedReads < maxFailedReadsInARow) {
            continue;  // a damaged or missing sample: the demuxer moves on to the next one
        }
        if (status < 0) {
            // The end of the input (a file cut short ends here too: every sample past the cut fails, and the caller
            // compares the frames with those the container announced), or a read that failed: either way the
            // decoder hands out what it still holds first. A demuxer may say end of file for a failed read, but
            // the byte reader keeps the failure (avio marks an error as an end too, so its end alone proves nothing).
            const int inputError = format_->pb != nullptr ? format_->pb->error : 0;
            if (inputError < 0) {
                drainAfterInputFailure(inputError);
            } else if (status == AVERROR_EOF || status == AVERROR_INVALIDDATA ||
                       (format_->pb != nullptr && avio_feof(format_->pb))) {
                draining_ = true;
                avcodec_send_packet(context, nullptr);
            } else {
                drainAfterInputFailure(status);
            }
            continue;
        }
        failedReads = 0;
        if (packet_->stream_index == streamIndex_) {
            if ((packet_->flags & AV_PKT_FLAG_DISCARD) == 0) {
                ++packetsSent_;
            }
            // One whose picture was over the limit is refused by allocatePicture: the next turn of the loop throws.
            status = avcodec_send_packet(context, packet_.get());
            if (status < 0 && status != AVERROR(EAGAIN) && status != AVERROR_EOF) {
                // Decoding it failed (its data damaged): the packet is used up, the decoder goes on with the next.
                ++refusedPackets_;
            } else {
                refusalsInARow = 0;
            }
        }
        av_packet_unref(packet_.get());
    }
}

int64_t MediaDecoder::undecodableFrames() const {
    // Until the decoder has been drained, frames still inside it (held for reordering) are not lost.
    if (ended_ && refusedPackets_ > 0) {
        return std::max(refusedPackets_, packetsSent_ - framesRead_);
    }
    return refusedPackets_;
}

void MediaDecoder::drainAfterInputFailure(int error) {
    char text[160];
    if (deadline_.passed()) {
        std::snprintf(text, sizeof text, "no data arrived within %g s after frame %lld", options_.timeoutMs / 1000.0,
                      static_cast<long long>(framesRead_));
    } else {
        std::snprintf(text, sizeof text, "reading failed after frame %lld: %s", static_cast<long long>(framesRead_),
                      describe(error).c_str());
    }
    inputFailure_ = text;
    draining_ = true;
    avcodec_send_packet(codec_.get(), nullptr);
}

CB_Image *MediaDecoder::imageFrom(const AVFrame *frame) {
    const int width = frame->width;
    const int height = frame->height;
    // Video-range 4:2:0 only: OpenCV's I420 conversion (CB_Image::bgr) assumes video range, so full-range
    // (JPEG, yuvj420p) frames go through swscale, which knows the range.
    const bool videoRange420 = frame->format == AV_PIX_FMT_YUV420P && frame->color_range != AVCOL_RANGE_JPEG;
    if (!videoRange420 || width % 2 != 0 || height % 2 != 0) {
        cv::Mat bgr = bgrFrom(frame);
        if (rotationDegrees_ != 0) {
            cv::Mat turned;
            rotatePlane(bgr, turned, rotationDegrees_);
            bgr = turned;
        }
        return new CB_Image(std::move(bgr));
    }
    // The decoder's own planes, borrowed while the image holds a reference to its frame: no copy, and the pages
    // of its buffer pool stay warm (a fresh 1.4 MB copy a 720p frame cost 6 % of a barcodes-only scan's CPU, half
    // of it in page faults).
    std::shared_ptr<AVFrame> reference(av_frame_clone(frame), [](AVFrame *held) { av_frame_free(&held); });
    if (!reference) {
        throw std::bad_alloc();
    }
    const auto plane = [&](int index, int columns, int rows) {
        return cv::Mat(rows, columns, CV_8UC1, reference->data[index], static_cast<size_t>(reference->linesize[index]));
    };
    cv::Mat luma = plane(0, width, height), blue = plane(1, width / 2, height / 2),
            red = plane(2, width / 2, height / 2);
    if (rotationDegrees_ == 0) {
        return CB_Image::fromI420(luma, blue, red, std::move(reference));
    }
    cv::Mat turnedLuma, turnedBlue, turnedRed;
    rotatePlane(luma, turnedLuma, rotationDegrees_);
    rotatePlane(blue, turnedBlue, rotationDegrees_);
    rotatePlane(red, turnedRed, rotationDegrees_);
    return CB_Image::fromI420(turnedLuma, turnedBlue, turnedRed);
}

cv::Mat MediaDecoder::bgrFrom(const AVFrame *frame) {
    const int width = frame->width;
    const int height = frame->height;
    scaler_.reset(sws_getCachedContext(scaler_.release(), width, height, static_cast<AVPixelFormat>(frame->format),
                                       width, height, AV_PIX_FMT_BGR24, SWS_BILINEAR, nullptr, nullptr, nullptr));
    if (scaler_ == nullptr) {
        const char *name = av_get_pix_fmt_name(static_cast<AVPixelFormat>(frame->format));
        throw std::runtime_error(std::string("cannot convert pixel format ") + (name != nullptr ? name : "unknown"));
    }
    // swscale's vector code writes past the last pixel of a row and of the picture (a 162 x 122 MJPEG frame
    // corrupted the heap with rows merely padded to 64 bytes): convert into a buffer FFmpeg sizes itself.
    uint8_t *destination[4] = {nullptr, nullptr, nullptr, nullptr};
    int destinationStride[4] = {0, 0, 0, 0};
    if (av_image_alloc(destination, destinationStride, width, height, AV_PIX_FMT_BGR24, 64) < 0) {
        throw std::bad_alloc();
    }
    std::unique_ptr<uint8_t, void (*)(uint8_t *)> owned(destination[0], [](uint8_t *buffer) { av_free(buffer); });
    sws_scale(scaler_.get(), frame->data, frame->linesize, 0, height, destination, destinationStride);
    return cv::Mat(height, width, CV_8UC3, destination[0], static_cast<size_t>(destinationStride[0])).clone();
}

}  // namespace cbridge
