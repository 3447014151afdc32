/* CBridge: a decoded picture: opened, decoded from memory or copied from pixels, and what is read of it. Ownership,
 * errors and threads: CBridge.h. */
#ifndef LIVESCAN_CBIMAGE_H
#define LIVESCAN_CBIMAGE_H

#include "CBStatus.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Image: a decoded picture (BGR, or a video's I420 planes); BGR and grey made on first use */

typedef struct CB_Image CB_Image;

/**
 * Decodes an image file (cv::imdecode of its bytes). Its header is read first: CB_TOO_LARGE, before anything is
 * decoded, when it announces more than `max_pixels` pixels (0 = no limit of CBridge's; PNG, JPEG, BMP, WebP,
 * TIFF and PNM headers are read). CB_OPEN_FAILED if it cannot be read or is not an image. `*out_truncated` is 1
 * when the file ends before its picture does (a JPEG without its end marker, a PNG without IEND): what decoded
 * is returned, its missing part grey. The pixels are as stored, not turned by a JPEG's Exif orientation: positions
 * are reported in them; the image keeps the orientation, and the text functions read it upright.
 */
CB_Status CB_Image_open(const char *path, int64_t max_pixels, CB_Image **out_image, int *out_truncated);
/** Decodes an image held in memory (`count` bytes of an image file: what a pipe gave), as CB_Image_open does. */
CB_Status CB_Image_decode(const uint8_t *bytes, size_t count, int64_t max_pixels, CB_Image **out_image,
                          int *out_truncated);
/** Copies packed pixels: `channels` 1 (gray), 3 (BGR) or 4 (BGRA); `stride` bytes per row. */
CB_Status CB_Image_new(const uint8_t *pixels, int width, int height, int channels, int stride, CB_Image **out_image);
void CB_Image_delete(CB_Image *image);
int CB_Image_width(const CB_Image *image);
int CB_Image_height(const CB_Image *image);
/**
 * The picture's outline in its stored pixels, its corners named as the picture stands upright (its Exif
 * orientation applied; CB_Quad's order): the quad that reads the whole picture as one line. Zeros for NULL.
 */
CB_Quad CB_Image_upright_outline(const CB_Image *image);
/**
 * How sharp the picture is: the variance of the Laplacian of its gray image, reduced to at most 640
 * pixels wide first. Blurred pictures score low; the scale depends on content, so compare like scenes.
 */
CB_Status CB_Image_sharpness(const CB_Image *image, double *out_sharpness);
/** Copies the pixels as 8-bit gray into `out` (width*height bytes). */
CB_Status CB_Image_copy_gray(const CB_Image *image, uint8_t *out, size_t capacity);
/**
 * The mean gray of every `cell` x `cell` block (cells cut by the right or bottom edge are left out), row
 * by row into `out`: a thumbnail cheap enough to compare every frame with the last, to find what changed.
 * Writes `*out_columns` x `*out_rows` bytes; CB_INVALID_ARGUMENT if `capacity` is smaller.
 */
CB_Status CB_Image_cell_means(const CB_Image *image, int cell, uint8_t *out, size_t capacity, int *out_columns,
                              int *out_rows);
/**
 * The detail of each of `columns` x `rows` equal cells of the picture, row by row into `out`: the mean absolute
 * Laplacian of the means of its gray's 4 x 4 blocks (about 0.1 ms for a 720p frame). Print, edges and texture
 * score high, a camera's pixel noise little; motion blur and defocus lower it in every cell that had detail, while
 * content leaving the view lowers it only where the content was. Columns and rows 1...64; writes `columns` x `rows`
 * floats (zeros for a picture under 12 pixels a side); CB_INVALID_ARGUMENT if `capacity` is smaller.
 */
CB_Status CB_Image_cell_detail(const CB_Image *image, int columns, int rows, float *out, size_t capacity);
/**
 * The picture resized to `width` x `height` (cv::resize, INTER_AREA: each pixel the mean of those it covers; a
 * video frame is made BGR first, as for every colour use), as packed 8-bit RGB, row by row into `out`: a
 * thumbnail to show, such as the live listing's terminal preview. Writes `width` * `height` * 3 bytes;
 * CB_INVALID_ARGUMENT if `capacity` is smaller or a side is outside 1...32768.
 */
CB_Status CB_Image_copy_resized_rgb(const CB_Image *image, int width, int height, uint8_t *out, size_t capacity);
/**
 * Copies the gray pixels of `rect` (clipped to the image) into a new image, `*out_patch`, to look for
 * later with CB_Image_locate_patch. CB_INVALID_ARGUMENT when nothing of `rect` is inside the image.
 * Free with CB_Image_delete.
 */
CB_Status CB_Image_copy_patch(const CB_Image *image, CB_Rect rect, CB_Image **out_patch);
/**
 * Where `patch` best matches `image` with its top-left corner inside `search` (normalised cross-correlation
 * of gray pixels, at half size for patches over 64 pixels, refined to a fraction of a pixel): the corner in
 * `*out_x`, `*out_y`, and the correlation, -1...1, in `*out_score`. A search rectangle that leaves the image
 * is clipped; `*out_score` is -1 when the patch does not fit in what remains.
 */
CB_Status CB_Image_locate_patch(const CB_Image *patch, const CB_Image *image, CB_Rect search, float *out_x,
                                float *out_y, double *out_score);
/**
 * Encodes to a file whose extension picks the format (cv::imencode), replacing one there. Every write and the
 * closing are checked: CB_OPEN_FAILED with the system's reason when one fails (a full disk).
 */
CB_Status CB_Image_write(const CB_Image *image, const char *path);
/**
 * Encodes as JPEG in memory (cv::imencode, `quality` 1...100), first scaled down (INTER_AREA) to at most
 * `max_width` pixels wide when it is wider (0: as it is): a picture to show, as a live view sends it. The bytes,
 * `*out_count` of them, are the caller's: free them with CB_Bytes_free.
 */
CB_Status CB_Image_encode_jpeg(const CB_Image *image, int max_width, int quality, uint8_t **out_bytes,
                               size_t *out_count);
void CB_Bytes_free(uint8_t *bytes);

#ifdef __cplusplus
}
#endif

#endif
