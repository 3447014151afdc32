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
    CB_TOO_LARGE = 6         /* a picture (an image's header, a video frame) is over the caller's limit */
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
