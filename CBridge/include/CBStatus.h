/* CBridge: the status every call returns, the last error, and the geometry every engine reports in. Ownership, errors
 * and threads: CBridge.h. */
#ifndef LIVESCAN_CBSTATUS_H
#define LIVESCAN_CBSTATUS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Status ------------------------------------------------------------------------------- */

typedef enum CB_Status {
    CB_OK = 0,
    CB_INVALID_ARGUMENT = 1, /* a NULL handle, an empty path, a size out of range */
    CB_OPEN_FAILED = 2,      /* a file, device or stream could not be opened or decoded */
    CB_END_OF_STREAM = 3,    /* a read found no further frame */
    CB_MODEL_MISSING = 4,    /* recognition data (traineddata) is not installed */
    CB_ENGINE_FAILED = 5,    /* OpenCV, zxing-cpp or Tesseract reported an error */
    CB_TOO_LARGE = 6,        /* a picture (an image's header, a video frame) is over the caller's limit */
    CB_CANCELLED = 7         /* the call's CB_Cancellation was asked for: it ended early, its out-parameters unset */
} CB_Status;

/** The message of the last failure on this thread; borrowed, never NULL. */
const char *CB_last_error(void);

/**
 * Silences the libraries' own loggers for the whole process: OpenCV's (cv::utils::logging, which also carries
 * libtiff's warnings) and, with it, the lines libpng and libjpeg print for a damaged file they decode under
 * OpenCV's imgcodecs (its decoders are given handlers that print nothing, CBridge/QuietCodecs.cpp), unless the
 * user set OPENCV_LOG_LEVEL; and FFmpeg's (av_log), unless the user set OPENCV_FFMPEG_LOGLEVEL.
 * Their lines print file names and URLs raw, and say what a caller reports better itself. Process-wide state:
 * CBridge never calls it on its own; an executable calls it once, at start.
 */
void CB_silence_library_logs(void);

/* ---- Cancellation ----------------------------------------------------------------------------- */

/**
 * A long call's early end, asked for from another thread: a call that takes one (CB_TextDetector_detect) checks it
 * between its steps and stops the network run under way, returning CB_CANCELLED soon after CB_Cancellation_cancel.
 * Once asked for, it stays asked for: a call given it later returns CB_CANCELLED at once. The one handle that two
 * threads use at once: CB_Cancellation_cancel may be called from any thread while a call uses it; delete it when
 * neither does.
 */
typedef struct CB_Cancellation CB_Cancellation;

CB_Status CB_Cancellation_new(CB_Cancellation **out_cancellation);
void CB_Cancellation_delete(CB_Cancellation *cancellation);
void CB_Cancellation_cancel(CB_Cancellation *cancellation);
/** 1 once CB_Cancellation_cancel was called, else 0 (also for NULL). */
int CB_Cancellation_is_cancelled(const CB_Cancellation *cancellation);

/* ---- Geometry ----------------------------------------------------------------------------- */

/** Four corners in source pixels: topLeft, topRight, bottomRight, bottomLeft. */
typedef struct CB_Quad {
    float x[4];
    float y[4];
} CB_Quad;

typedef struct CB_Rect {
    int x, y, width, height;
} CB_Rect;

#ifdef __cplusplus
}
#endif

#endif
