/*
 * SceneRender: drawing primitives for synthetic scenes with exact ground truth (videos are written
 * by LiveScan's own CB_VideoWriter).
 * OpenCV draws, zxing-cpp 3.1 (its legacy MultiFormatWriter) encodes barcodes, FreeType (cv::freetype) renders text.
 *
 * Ownership, stated once:
 *  - A handle made by `SR_X_new`/`SR_X_open`/`SR_X_clone` is released with `SR_X_delete`
 *    (NULL is allowed). Nothing else is ever returned for the caller to free.
 *  - Pixel buffers passed in are copied or written into; SceneRender keeps no pointer to them.
 *  - Anything returned `const` is borrowed from its handle and valid while the handle lives.
 *
 * Errors: every call that can fail returns an `SR_Status`. On failure a human-readable message is
 * left for `SR_last_error()`, which is thread-local. No C++ exception ever crosses this header.
 *
 * Geometry: coordinates are continuous pixel coordinates with the origin at the top-left corner of
 * the top-left pixel, so pixel (i, j) covers [i, i+1) x [j, j+1). A quad lists its corners
 * topLeft, topRight, bottomRight, bottomLeft of the upright symbol or text.
 *
 * Threads: a handle is used by one thread at a time; different handles may be used concurrently.
 */
#ifndef LIVESCAN_SCENERENDER_H
#define LIVESCAN_SCENERENDER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Status ------------------------------------------------------------------------------- */

typedef enum SR_Status {
    SR_OK = 0,
    SR_INVALID_ARGUMENT = 1, /* a NULL handle, a size out of range, contents a symbology cannot encode */
    SR_UNSUPPORTED = 2,      /* zxing-cpp's writer has no encoder for the format; no codec for the extension */
    SR_IO_FAILED = 3,        /* a file could not be read, written or opened */
    SR_ENGINE_FAILED = 4     /* OpenCV, FreeType or zxing-cpp reported an error */
} SR_Status;

/** The message of the last failure on this thread; borrowed, never NULL. */
const char *SR_last_error(void);

/* ---- Plain values ------------------------------------------------------------------------- */

typedef struct SR_Color {
    uint8_t blue, green, red;
} SR_Color;

/** Four corners: topLeft, topRight, bottomRight, bottomLeft. */
typedef struct SR_Quad {
    float x[4];
    float y[4];
} SR_Quad;

typedef struct SR_Rect {
    int x, y, width, height;
} SR_Rect;

/* ---- Canvas: an 8-bit BGR picture (cv::Mat) ----------------------------------------------- */

typedef struct SR_Canvas SR_Canvas;

/** A canvas filled with `background`; width and height in 1...16384. */
SR_Status SR_Canvas_new(int width, int height, SR_Color background, SR_Canvas **out_canvas);
/** A deep copy of `source`. */
SR_Status SR_Canvas_clone(const SR_Canvas *source, SR_Canvas **out_canvas);
/** Copies `source`'s pixels into `destination`, which must have the same size (no allocation). */
SR_Status SR_Canvas_copy_from(SR_Canvas *destination, const SR_Canvas *source);
void SR_Canvas_delete(SR_Canvas *canvas);
int SR_Canvas_width(const SR_Canvas *canvas);
int SR_Canvas_height(const SR_Canvas *canvas);
/** Copies packed BGR rows (width*height*3 bytes, no padding) into `out`. */
SR_Status SR_Canvas_copy_pixels(const SR_Canvas *canvas, uint8_t *out, size_t capacity);
/** Encodes to a file whose extension picks the format (cv::imwrite): .png, .jpg, .bmp, ... */
SR_Status SR_Canvas_write(const SR_Canvas *canvas, const char *path);

/* ---- Backgrounds, clutter, occluders and camera effects ----------------------------------- */

/** A deterministic paper-like texture: a low-contrast gradient plus soft random blotches. */
typedef struct SR_Texture {
    SR_Color base;    /* the mean colour */
    int contrast;     /* peak deviation from `base` per channel, 0...128 */
    int blotch_count; /* soft elliptic blotches, 0...10000 */
    uint64_t seed;    /* same seed, same texture */
} SR_Texture;

/** Paints `texture` over `rect` (NULL = the whole canvas; clipped to the canvas). */
SR_Status SR_Canvas_draw_texture(SR_Canvas *canvas, const SR_Rect *rect, const SR_Texture *texture);

/**
 * Draws `count` random thin (1-2 px, anti-aliased) straight lines across the canvas in shades
 * around `color`: the stray marks that make text localisation hard. Deterministic for `seed`.
 */
SR_Status SR_Canvas_draw_stray_lines(SR_Canvas *canvas, int count, SR_Color color, uint64_t seed);

/** Fills `rect` (clipped to the canvas) with a solid colour: an occluder. */
SR_Status SR_Canvas_fill_rect(SR_Canvas *canvas, SR_Rect rect, SR_Color color);

/** Gaussian blur (cv::GaussianBlur) with standard deviation `sigma` pixels; 0 does nothing. */
SR_Status SR_Canvas_blur(SR_Canvas *canvas, double sigma);

/** Adds zero-mean Gaussian noise of standard deviation `sigma` per channel (saturating). */
SR_Status SR_Canvas_add_noise(SR_Canvas *canvas, double sigma, uint64_t seed);

/* ---- Barcodes: zxing-cpp 3.1 MultiFormatWriter -------------------------------------------- */

/** Bit flags, the values of CBridge's CB_Format (zxing-cpp 3's `BarcodeFormat` is no flag; SceneRender maps it). */
typedef enum SR_Format {
    SR_FORMAT_AZTEC = 1 << 0,
    SR_FORMAT_CODABAR = 1 << 1,
    SR_FORMAT_CODE39 = 1 << 2,
    SR_FORMAT_CODE93 = 1 << 3,
    SR_FORMAT_CODE128 = 1 << 4,
    SR_FORMAT_DATABAR = 1 << 5,
    SR_FORMAT_DATABAR_EXPANDED = 1 << 6,
    SR_FORMAT_DATAMATRIX = 1 << 7,
    SR_FORMAT_EAN8 = 1 << 8,
    SR_FORMAT_EAN13 = 1 << 9,
    SR_FORMAT_ITF = 1 << 10,
    SR_FORMAT_MAXICODE = 1 << 11,
    SR_FORMAT_PDF417 = 1 << 12,
    SR_FORMAT_QRCODE = 1 << 13,
    SR_FORMAT_UPCA = 1 << 14,
    SR_FORMAT_UPCE = 1 << 15,
    SR_FORMAT_MICROQRCODE = 1 << 16
} SR_Format;

typedef struct SR_Barcode SR_Barcode;

/**
 * Encodes the `length` bytes of `utf8_text` (which may hold NUL bytes) once, at one pixel per module and without
 * quiet zone.
 * SR_UNSUPPORTED for formats zxing-cpp's writer cannot write (Micro QR, MaxiCode, DataBar, DataBar
 * Expanded); SR_INVALID_ARGUMENT for contents the symbology cannot hold (e.g. letters in EAN-13).
 * EAN-13/EAN-8/UPC-A/UPC-E accept the digits without the check digit too; zxing appends it.
 */
SR_Status SR_Barcode_new(SR_Format format, const char *utf8_text, size_t length, SR_Barcode **out_barcode);
void SR_Barcode_delete(SR_Barcode *barcode);

typedef struct SR_BarcodeInfo {
    int columns;   /* modules across, without quiet zone */
    int rows;      /* modules down; 1 for linear codes, whose bar height the caller chooses */
    int is_linear; /* 1 for 1-D codes */
} SR_BarcodeInfo;

SR_Status SR_Barcode_info(const SR_Barcode *barcode, SR_BarcodeInfo *out_info);

typedef struct SR_BarcodeStyle {
    SR_Color ink;     /* dark modules and bars */
    SR_Color paper;   /* light modules and the quiet zone */
    float quiet_zone; /* in module widths, on every side (linear codes too, above and below) */
} SR_BarcodeStyle;

/**
 * Draws the symbol so that its module grid (quiet zone excluded) maps exactly onto `symbol` by a
 * perspective transform, sampled nearest-neighbour so modules stay crisp; the quiet zone is
 * painted around it with `style->paper`. Parts outside the canvas are clipped. The pixels the
 * symbol covers are those whose centres lie inside `symbol`, so `symbol` is the ground truth.
 */
SR_Status SR_Canvas_draw_barcode(SR_Canvas *canvas, const SR_Barcode *barcode, const SR_Quad *symbol,
                                 const SR_BarcodeStyle *style);

/* ---- Text: a TrueType font through cv::freetype ------------------------------------------- */

typedef struct SR_Font SR_Font;

/** Loads a TrueType/OpenType font file. SR_IO_FAILED when it is missing or not a font. */
SR_Status SR_Font_new(const char *path, SR_Font **out_font);
void SR_Font_delete(SR_Font *font);

/**
 * The ink box of one UTF-8 line rendered at FreeType height `pixel_height` (the em size in
 * pixels, 4...1000): the tight bounding box of the pixels the glyphs touch.
 */
SR_Status SR_Font_measure(SR_Font *font, const char *utf8_text, int pixel_height, int *out_width, int *out_height);

/**
 * Draws one horizontal UTF-8 line, anti-aliased, with the top-left of its ink box at
 * (round(left), round(top)); parts outside the canvas are clipped. `out_bounds` receives the ink
 * box in canvas coordinates (unclipped); it may be NULL.
 */
SR_Status SR_Canvas_draw_text(SR_Canvas *canvas, SR_Font *font, const char *utf8_text, int pixel_height, SR_Color color,
                              float left, float top, SR_Quad *out_bounds);

#ifdef __cplusplus
}
#endif

#endif
