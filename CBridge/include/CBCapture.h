/* CBridge: frames of files, streams and cameras (FFmpeg, cv::VideoCapture). Ownership, errors and threads: CBridge.h.
 */
#ifndef LIVESCAN_CBCAPTURE_H
#define LIVESCAN_CBCAPTURE_H

#include "CBImage.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Capture: FFmpeg (files, URLs), cv::VideoCapture (cameras) ----------------------------- */

typedef struct CB_Capture CB_Capture;

typedef struct CB_CaptureInfo {
    int width;
    int height;
    double fps;          /* 0 when the source does not say */
    int64_t frame_count; /* -1 when unknown (cameras, streams) */
} CB_CaptureInfo;

/**
 * Opens a video file (or a URL) with libavformat/libavcodec; opening and each read give up after 30 s, as OpenCV's
 * FFmpeg backend did. 4:2:0 frames keep their planes, so their grey costs no conversion. A display-matrix rotation
 * is applied as ffmpeg and players apply it (OpenCV 4.6 turned quarter turns the other way, upside down).
 * `max_pixels` (0 = no limit) bounds every picture: CB_TOO_LARGE, before anything is decoded, when the container
 * announces a larger one (a GIF's screen, an AVI's header), and from CB_Capture_read for a frame found larger later
 * (refused before its buffers are allocated; the capture has then ended). Image sequences (`img_%03d.png`) are
 * not opened here: VideoSource checks and decodes their files one by one. FFmpeg logs as the process has set av_log
 * up (CB_silence_library_logs quiets it).
 */
CB_Status CB_Capture_open(const char *path, int64_t max_pixels, CB_Capture **out_capture);
/**
 * Opens a network stream (libavformat) whose open and every read give up after `timeout_ms` (an interrupt
 * callback with a deadline, as OpenCV's CAP_PROP_OPEN_TIMEOUT_MSEC / CAP_PROP_READ_TIMEOUT_MSEC): without
 * them a udp source whose sender stops blocks a read for ever. Tuned for latency: brief probing (the first
 * frame of a tcp MPEG-TS stream in ~50 ms), slice threads only and AV_CODEC_FLAG_LOW_DELAY, so no decoded
 * frame is held back. `max_pixels` as for CB_Capture_open.
 */
CB_Status CB_Capture_open_stream(const char *url, int timeout_ms, int64_t max_pixels, CB_Capture **out_capture);
/**
 * Opens camera `index` (V4L2, /dev/video<index>), asking for `width`x`height` at `fps` (0 = the
 * camera's default). CB_OPEN_FAILED when there is no such camera or it is busy.
 */
CB_Status CB_Capture_open_camera(int index, int width, int height, double fps, CB_Capture **out_capture);
void CB_Capture_delete(CB_Capture *capture);
CB_Status CB_Capture_info(const CB_Capture *capture, CB_CaptureInfo *out_info);
/**
 * Decodes the next frame into a new image and reports its media time in seconds.
 * CB_END_OF_STREAM when the source has no further frame. Files and streams: a frame the decoder refuses (a damaged
 * stretch) is skipped, as ffmpeg skips it, and counted (CB_Capture_undecodable_frames); a read that fails (an I/O
 * error, nothing within the timeout) is CB_OPEN_FAILED saying after which frame and why, once the frames the decoder
 * still held have been handed out, never an end of stream. CB_TOO_LARGE for a frame over the capture's pixel limit.
 */
CB_Status CB_Capture_read(CB_Capture *capture, CB_Image **out_image, double *out_seconds);
/** The frames of a file or stream skipped so far because the decoder refused them; 0 for a camera. */
CB_Status CB_Capture_undecodable_frames(const CB_Capture *capture, int64_t *out_count);

#ifdef __cplusplus
}
#endif

#endif
