/* CBridge: videos written (FFmpeg). Ownership, errors and threads: CBridge.h. */
#ifndef LIVESCAN_CBVIDEOWRITER_H
#define LIVESCAN_CBVIDEOWRITER_H

#include "CBImage.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Video writer: FFmpeg's libavcodec and libavformat ------------------------------------- */

typedef struct CB_VideoWriter CB_VideoWriter;

/**
 * Opens a video file for writing; the extension picks the codec: .mp4, .mkv, .mov -> H.264 ("avc1"),
 * or MPEG-4 Part 2 ("mp4v") when H.264 cannot be opened; .avi -> Motion JPEG ("MJPG"). Any other
 * extension is CB_INVALID_ARGUMENT; a path that cannot be created is CB_OPEN_FAILED. `fps` in (0, 1000],
 * sizes in 1...16384. An odd width or height is padded by one replicated pixel row or column when
 * encoding (4:2:0 encoders reject odd sizes); frames are still given at `width` x `height`.
 */
CB_Status CB_VideoWriter_open(const char *path, double fps, int width, int height, CB_VideoWriter **out_writer);
/** The FourCC in use ("avc1", "mp4v", "MJPG"); borrowed, "" for NULL. */
const char *CB_VideoWriter_fourcc(const CB_VideoWriter *writer);
/**
 * Encodes one frame. A frame of another size than the one given to CB_VideoWriter_open (a stream that changed
 * resolution) is scaled to fit it, aspect kept, centred on black. Every write to the file is checked: the first
 * that fails (a full disk: "No space left on device", a file-size limit: "File too large") is CB_ENGINE_FAILED,
 * and so is every call after it, CB_VideoWriter_close included.
 */
CB_Status CB_VideoWriter_write(CB_VideoWriter *writer, const CB_Image *image);
/**
 * Flushes the encoder, writes the container's trailer (an MP4's index) and closes the file, each checked: CB_OK
 * only when the whole file was written. Further writes fail; closing twice returns the same status.
 */
CB_Status CB_VideoWriter_close(CB_VideoWriter *writer);
/** Closes (ignoring errors) and frees the writer. NULL is allowed. */
void CB_VideoWriter_delete(CB_VideoWriter *writer);

#ifdef __cplusplus
}
#endif

#endif
