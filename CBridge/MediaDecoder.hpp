// Video files and network streams decoded with FFmpeg's libavformat/libavcodec directly, for CB_Capture.
// cv::VideoCapture (still used for cameras and image sequences) converts every frame to BGR and decodes
// streams with frame threading, which holds back (threads - 1) frames that cannot be configured away; here
// 4:2:0 frames come out as their I420 planes, whose luma already is the grey picture most readers want.
#pragma once

#include "Internal.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

struct AVCodec;
struct AVCodecContext;
struct AVFormatContext;
struct AVFrame;
struct AVPacket;
struct SwsContext;

namespace cbridge {

/// How a MediaDecoder trades throughput against latency.
struct MediaDecoderOptions {
    /// A live network stream: short probing, slice threads only and the codec's low-delay
    /// flag, so each frame is handed out as soon as its packet has arrived.
    bool live = false;
    /// Bounds opening (probing included) and then every read, in milliseconds; 0 = no bound.
    int timeoutMs = 0;
    /// Decoder threads; 0 lets FFmpeg choose (one more than the cores for frame threading).
    int threadCount = 0;
    /// The most pixels a picture may have (0 = no limit): a stream whose container announces more is refused
    /// before anything is decoded, and a frame found larger later is refused before its buffers are allocated.
    long long maxPixels = 0;
};

/// What MediaDecoder throws for a picture over MediaDecoderOptions::maxPixels; what() says its size and the limit.
struct PictureTooLarge : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// What MediaDecoder::read throws when the input cannot go on (a read error, no data within the deadline), once the
/// frames the decoder still held have been handed out; what() says after how many frames, and why.
struct ReadFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// One video stream of a file or URL, decoded frame by frame. Not thread-safe: one reader at a time.
/// Throws PictureTooLarge (from open and read) for a picture over the options' maxPixels.
class MediaDecoder {
public:
    /// Opens `url` and the decoder of its best video stream. Throws std::runtime_error, saying why, when the
    /// source does not open within the timeout or holds no decodable video.
    static std::unique_ptr<MediaDecoder> open(const std::string &url, const MediaDecoderOptions &options);
    ~MediaDecoder();
    MediaDecoder(const MediaDecoder &) = delete;
    MediaDecoder &operator=(const MediaDecoder &) = delete;

    /// Width, height, rate and frame count as cv::VideoCapture's FFmpeg backend (OpenCV 4.6) reports them.
    CB_CaptureInfo info() const;

    /// The next frame (I420 planes for 4:2:0 video, else BGR), and its media time in seconds from the stream's
    /// start. A frame the decoder refuses (a damaged stretch) is skipped and counted in undecodableFrames(), as
    /// ffmpeg skips it, and the next one is decoded. nullptr once the input has ended; throws ReadFailure, after
    /// the frames the decoder still held, when it cannot go on (a read error, nothing within the deadline). Either
    /// way it stays ended.
    CB_Image *read(double *seconds);

    /// The frames that did not decode: each packet of the video stream the decoder refused (its data damaged), and
    /// once the input has ended after such a refusal, also the frames that depended on one and never came out (the
    /// decoder drops them without a word: B-frames whose reference was refused). Packets that show no frame by design
    /// are not counted: an edit list's discarded lead-in never, VP8's hidden frames in a stream nothing was refused in.
    int64_t undecodableFrames() const;

private:
    MediaDecoder() = default;

    /// FFmpeg polls this from its blocking I/O and gives up with AVERROR_EXIT once it returns non-zero.
    struct Deadline {
        std::chrono::steady_clock::time_point at = std::chrono::steady_clock::time_point::max();
        void restart(int timeoutMs);
        bool passed() const { return std::chrono::steady_clock::now() > at; }
        static int interrupt(void *deadline);
    };

    struct FormatCloser {
        void operator()(AVFormatContext *context) const;
    };
    struct CodecFreer {
        void operator()(AVCodecContext *context) const;
    };
    struct PacketFreer {
        void operator()(AVPacket *packet) const;
    };
    struct FrameFreer {
        void operator()(AVFrame *frame) const;
    };
    struct ScalerFreer {
        void operator()(SwsContext *scaler) const;
    };

    // The steps of open(), in order; each throws saying what failed.
    /// Opens `url` (the demuxer and protocol) and probes its streams, within the deadline.
    void openInput(const std::string &url);
    /// The error open() throws for FFmpeg's `error`: a deadline that passed says so.
    std::runtime_error openFailure(int error) const;
    /// Picks the best video stream (streamIndex_, rotationDegrees_) and has the demuxer drop the others; its decoder.
    const AVCodec *chooseVideoStream();
    /// Opens `codec` on the chosen stream with the threading options_ ask for.
    void openCodec(const AVCodec *codec);

    /// Throws PictureTooLarge when `width` x `height` is over options_.maxPixels.
    void checkPixels(int width, int height) const;
    /// The decoder's get_buffer2: refuses a picture over the limit before its buffers are allocated, noting its
    /// size in oversized_ (read() then throws), and leaves every other to FFmpeg's own allocator.
    static int allocatePicture(AVCodecContext *context, AVFrame *frame, int flags);

    double framesPerSecond() const;
    /// The input cannot go on (av_read_frame's `error`, or the deadline passed): notes why, for read() to throw
    /// once the decoder has handed out the frames it still holds, and starts that drain.
    void drainAfterInputFailure(int error);
    /// The frame the decoder just handed out, as an image, with its media time in `seconds` (when not null).
    CB_Image *takeFrame(double *seconds);
    /// Reads the input's next packet and sends it to the decoder when it is the video stream's; starts the drain
    /// at the input's end or when a read fails. `failedReads` and `refusalsInARow` are read()'s counts for this
    /// frame: damaged samples passed over, and packets the decoder refused, in a row.
    void sendNextPacket(int &failedReads, int &refusalsInARow);
    CB_Image *imageFrom(const AVFrame *frame);
    cv::Mat bgrFrom(const AVFrame *frame);

    MediaDecoderOptions options_;
    // Declared before the contexts, so it outlives them: closing the input may still poll it.
    Deadline deadline_;
    std::unique_ptr<AVFormatContext, FormatCloser> format_;
    std::unique_ptr<AVCodecContext, CodecFreer> codec_;
    std::unique_ptr<AVPacket, PacketFreer> packet_;
    std::unique_ptr<AVFrame, FrameFreer> frame_;
    std::unique_ptr<SwsContext, ScalerFreer> scaler_;
    /// Each stream's width and height as its header announced them, before probing.
    std::vector<std::pair<int, int>> announcedSizes_;
    int streamIndex_ = -1;
    int rotationDegrees_ = 0;  // clockwise, 0/90/180/270: what the container's display matrix asks for
    bool draining_ = false;    // the demuxer has ended; the decoder is handing out the frames it still holds
    bool ended_ = false;
    int64_t packetsSent_ = 0;     // packets of the video stream given to the decoder to show
    int64_t framesRead_ = 0;      // frames handed out
    int64_t refusedPackets_ = 0;  // packets the decoder refused (undecodableFrames())
    std::string inputFailure_;    // why the input stopped early, thrown once the drain is done; empty at its end
    // Set by allocatePicture, on the decoder's thread, when it refused a picture: its width and height.
    std::atomic<long long> oversizedWidth_{0}, oversizedHeight_{0};
};

}  // namespace cbridge
