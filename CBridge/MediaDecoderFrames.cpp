// The frames of a MediaDecoder: packets decoded until a frame comes out (damaged ones passed over, a failed input
// drained), each handed out as its I420 planes or as BGR, turned upright.
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

// A truncated MP4 makes the demuxer fail every sample past the cut, one call each; a damaged packet in a whole
// file fails once. OpenCV's FFmpeg backend gives up after as many failed reads in a row (OPENCV_FFMPEG_READ_ATTEMPTS).
constexpr int maxFailedReadsInARow = 4096;

/// Turns `source` clockwise by `degrees` (90, 180 or 270) into `destination`.
void rotatePlane(const cv::Mat &source, cv::Mat &destination, int degrees) {
    const int code = degrees == 90    ? cv::ROTATE_90_CLOCKWISE
                     : degrees == 180 ? cv::ROTATE_180
                                      : cv::ROTATE_90_COUNTERCLOCKWISE;
    cv::rotate(source, destination, code);
}

}  // namespace

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
            return takeFrame(seconds);
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
                                  std::to_string(framesRead_) + ": " + describeAVError(status));
            }
            continue;
        }
        // EAGAIN: the decoder wants another packet.
        if (deadline_.passed()) {
            // A stream that trickles but never completes a frame, or a file that stopped arriving.
            drainAfterInputFailure(AVERROR_EXIT);
            continue;
        }
        sendNextPacket(failedReads, refusalsInARow);
    }
}

CB_Image *MediaDecoder::takeFrame(double *seconds) {
    if (seconds != nullptr) {
        // OpenCV's CAP_PROP_POS_MSEC: media time from the stream's first timestamp, 0 when there is none.
        const AVStream *stream = format_->streams[streamIndex_];
        const int64_t start = stream->start_time != AV_NOPTS_VALUE ? stream->start_time : 0;
        const int64_t timestamp = frame_->best_effort_timestamp;
        *seconds =
            timestamp != AV_NOPTS_VALUE ? static_cast<double>(timestamp - start) * toDouble(stream->time_base) : 0.0;
    }
    CB_Image *image = imageFrom(frame_.get());
    av_frame_unref(frame_.get());
    ++framesRead_;
    return image;
}

void MediaDecoder::sendNextPacket(int &failedReads, int &refusalsInARow) {
    AVCodecContext *context = codec_.get();
    int status = av_read_frame(format_.get(), packet_.get());
    if (status == AVERROR(EAGAIN)) {
        return;
    }
    if (status == AVERROR_INVALIDDATA && ++failedReads < maxFailedReadsInARow) {
        return;  // a damaged or missing sample: the demuxer moves on to the next one
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
        return;
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
                      describeAVError(error).c_str());
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
