/*
 * CBridge: LiveScan's one C boundary over OpenCV, zxing-cpp and Tesseract.
 *
 * Ownership, stated once:
 *  - A handle (an opaque `CB_X *`) returned through an out-parameter, by `CB_X_new`/`CB_X_open` or any
 *    other call (`CB_Capture_read`'s image), is released with `CB_X_delete` (NULL is allowed).
 *  - An array returned through an out-parameter (`CB_Barcode *`, `CB_TextLine *`, `CB_Quad *`) is
 *    released with the `_free` function declared beside the call that made it; strings and byte
 *    buffers inside it belong to the array.
 *  - Anything `const` is borrowed and valid until the next call on the same handle.
 * Nothing else CBridge returns is the caller's to free.
 *
 * Errors: every call returns a `CB_Status`. On failure a human-readable message is left for
 * `CB_last_error()`, which is thread-local. No C++ exception ever crosses this header.
 *
 * Threads: a handle is used by one thread at a time; different handles may be used concurrently.
 */
#ifndef LIVESCAN_CBRIDGE_H
#define LIVESCAN_CBRIDGE_H

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

/* ---- Barcodes: zxing-cpp 3.1 ReadBarcodes ------------------------------------------------- */

/**
 * LiveScan's symbologies as bit flags (zxing-cpp 3's `BarcodeFormat` is no flag: symbology and variant ids).
 * Each reads its zxing-cpp symbology, less the variants with a flag of their own: QR Code also Model 1 and
 * rMQR, PDF417 also Compact PDF417 and MicroPDF417, Aztec also Aztec Rune, Code 39 also full ASCII, Code 32 and
 * PZN, ITF also ITF-14, DataBar also DataBar Stacked and Limited (DataBar Expanded and Expanded Stacked:
 * DATABAR_EXPANDED), Telepen its full ASCII (`]B0`), numeric (`]B1`) and mixed (`]B2`, `]B4`) symbols.
 * Stand-alone EAN-2/EAN-5 add-ons are not read. Values are stable: a new flag takes the next bit.
 *
 * Opt-in formats: Telepen and DX film edge are read only when their flag is given. Formats 0 ("every
 * symbology") reads CB_FORMAT_DEFAULT, which leaves them out: they read nothing a general scan meets (no false
 * read on the corpora's other images, real photos or dev-scene videos) but cost 4 % more a 720p frame, 14 % on
 * one of stripes, and a DX code is checked by a single parity bit.
 */
typedef enum CB_Format {
    CB_FORMAT_NONE = 0,
    CB_FORMAT_AZTEC = 1 << 0,
    CB_FORMAT_CODABAR = 1 << 1,
    CB_FORMAT_CODE39 = 1 << 2,
    CB_FORMAT_CODE93 = 1 << 3,
    CB_FORMAT_CODE128 = 1 << 4,
    CB_FORMAT_DATABAR = 1 << 5,
    CB_FORMAT_DATABAR_EXPANDED = 1 << 6,
    CB_FORMAT_DATAMATRIX = 1 << 7,
    CB_FORMAT_EAN8 = 1 << 8,
    CB_FORMAT_EAN13 = 1 << 9,
    CB_FORMAT_ITF = 1 << 10,
    CB_FORMAT_MAXICODE = 1 << 11,
    CB_FORMAT_PDF417 = 1 << 12,
    CB_FORMAT_QRCODE = 1 << 13,
    CB_FORMAT_UPCA = 1 << 14,
    CB_FORMAT_UPCE = 1 << 15,
    CB_FORMAT_MICROQRCODE = 1 << 16,
    CB_FORMAT_TELEPEN = 1 << 17,    /* opt-in; text as decoded: ASCII, numeric pairs as digits ("01234567") */
    CB_FORMAT_DXFILMEDGE = 1 << 18, /* opt-in; 35 mm film's DX edge code: "DX1-DX2", with a frame number
                                       "DX1-DX2/FRAME" ("36-2/21", a half frame "/21A"); identifier "]XF" */
    /* Every flag, the opt-in ones included: the flags CB_Barcode_read accepts. */
    CB_FORMAT_ALL = (1 << 19) - 1,
    /* What formats 0 reads: every flag but the opt-in ones (CB_FORMAT_TELEPEN, CB_FORMAT_DXFILMEDGE). */
    CB_FORMAT_DEFAULT = CB_FORMAT_ALL & ~(CB_FORMAT_TELEPEN | CB_FORMAT_DXFILMEDGE)
} CB_Format;

typedef struct CB_BarcodeOptions {
    int formats;             /* CB_Format flags; 0 means CB_FORMAT_DEFAULT (all but the opt-in ones) */
    int try_harder;          /* zxing ReaderOptions::tryHarder */
    int try_rotate;          /* zxing ReaderOptions::tryRotate */
    int try_inverted;        /* also read the inverted picture, for light-on-dark codes (ReaderOptions::tryInvert) */
    int max_dimension;       /* frames larger than this are downscaled by CBridge first; 0 = only beyond zxing-cpp's
                                limit of 65535 pixels a side */
    int try_downscale;       /* also zxing's own downscaled passes (ReaderOptions::tryDownscale) after the full-size
                                one: halving low-passes a screen's moire and merges noisy modules; it costs a quarter
                                more time a 720p frame for 0.2 % more of the corpora's codes */
    int try_any_angle;       /* also linear codes turned away from rows and columns: regions whose gradients all point
                                one way (bars) are cut out upright and read again; a region holding a code already read
                                is skipped. Checksum-less formats (Code 39, Codabar, ITF) must read alike on two halves
                                of their bars' height. */
    int try_equalised;       /* also the 2-D codes of the image contrast-equalised (CLAHE on an 8 x 8 grid of
                                tiles): codes whose modules differ by fewer grey levels than zxing-cpp's binariser takes
                                for an edge (underexposed photos, a bright spot or glare setting the exposure). A read
                                more. */
    int try_second_chances;  /* also the QR, PDF417, Data Matrix and Aztec formats asked for that no read found,
                                looked for again in the image halved, then (images up to 640 px) doubled and
                                binarised globally */
    CB_Rect region;          /* read only this part of the image (clipped to it); width or height 0 = all of it.
                                Quads stay in the whole image's pixels. */
    int along_picture_lines; /* with try_harder and a region: linear codes are looked for along the rows and
                                columns a read of the whole image scans, not along the region's own (zxing-cpp
                                spaces its lines by the size of what it reads: every line of a small region), so
                                a code is read on the same lines, its quad on the same bars, whichever region holds
                                it. Without try_harder zxing-cpp scans lines about the middle of what it reads,
                                whatever its size, and this changes nothing. */
} CB_BarcodeOptions;

typedef struct CB_Barcode {
    int format;         /* one CB_Format; a UPC-A symbol is UPC-A when that was asked for, else EAN-13 */
    char *text;         /* UTF-8 as zxing decoded it (ECI / charset applied; TextMode::Plain: GS1 keeps its
                           GS separators), NUL-terminated; it may hold NUL bytes of its own (a binary
                           payload): read `text_length` bytes. EAN/UPC: the digits printed (UPC-A 12, UPC-E 8,
                           not zxing-cpp 3's 13-digit EAN form), then an EAN-13 or UPC-A's add-on digits, if
                           any (symbology identifier ]E3); Codabar with its start/stop letters */
    size_t text_length; /* bytes of `text`, without the terminating NUL */
    uint8_t *bytes;     /* the payload bytes, unchanged */
    size_t byte_count;
    CB_Quad quad;                 /* in the input image's pixels; a linear code's covers the full height of its bars
                                     (grown from the rows the read scanned while the bars' profile repeats) */
    char symbology_identifier[8]; /* e.g. "]Q1" */
    int sequence_index;           /* structured append: position, -1 if not part of a sequence or if merged */
    int sequence_size;            /* structured append: number of symbols, 0 if none. A sequence whose every
                                     part was read is one barcode (index -1), its payload the parts' in order */
    char *sequence_id;            /* structured append: what the sequence's parts share (QR: its parity byte,
                                     PDF417: its file id), NUL-terminated; NULL if not a part */
    int line_count;               /* linear codes: the scan lines that read it alike (zxing-cpp's lineCount), the
                                     support of its reading; 0 for 2-D codes */
} CB_Barcode;

/** Decodes every barcode in the image. `*out_count` may be 0. Free with CB_Barcodes_free. */
CB_Status CB_Barcode_read(const CB_Image *image, const CB_BarcodeOptions *options, CB_Barcode **out_barcodes,
                          size_t *out_count);
void CB_Barcodes_free(CB_Barcode *barcodes, size_t count);

/* ---- QR codes: cv::QRCodeDetector as a locator, zxing-cpp as the decoder ------------------ */

/**
 * Locates QR codes with cv::QRCodeDetector::detectMulti. Debian's OpenCV 4.6 is built without
 * QUIRC, so OpenCV cannot decode them: each quad is rectified to an upright square and decoded
 * by zxing-cpp (isPure). Returns only quads that decoded. Free with CB_Barcodes_free.
 */
CB_Status CB_QR_locate_and_decode(const CB_Image *image, CB_Barcode **out_barcodes, size_t *out_count);

/**
 * Where QR codes are, decoded or not (cv::QRCodeDetector::detectMulti, about 30 ms at 720p): for
 * guidance ("move closer") when a code is in view that nothing decoded: CB_Barcode_read reports only
 * decoded symbols. Free with CB_Quads_free.
 */
CB_Status CB_QR_locate(const CB_Image *image, CB_Quad **out_quads, size_t *out_count);
void CB_Quads_free(CB_Quad *quads);

/* ---- Text: Tesseract 5 -------------------------------------------------------------------- */

typedef struct CB_OCR CB_OCR;

typedef struct CB_TextWord {
    char *text;
    float confidence; /* 0..100 */
    CB_Quad quad;
} CB_TextWord;

typedef struct CB_TextLine {
    char *text;       /* UTF-8 without the trailing newline */
    float confidence; /* mean word confidence, 0..100 */
    CB_Quad quad;     /* in the input image's pixels */
    CB_TextWord *words;
    size_t word_count;
} CB_TextLine;

/**
 * Starts Tesseract (LSTM engine) with `languages` such as "eng" or "eng+deu", loading
 * `<tessdata_path>/<language>.traineddata`; NULL `tessdata_path` uses Tesseract's default.
 * CB_MODEL_MISSING names the missing file. Set OMP_THREAD_LIMIT=1 in the environment before the
 * process starts: Debian's Tesseract uses OpenMP and is ~9x slower on 2 cores without it.
 */
CB_Status CB_OCR_new(const char *tessdata_path, const char *languages, CB_OCR **out_ocr);
/**
 * The folder CB_OCR_new reads trained data from when it is given none: $TESSDATA_PREFIX when set, else Debian 12's
 * /usr/share/tesseract-ocr/5/tessdata. Borrowed: valid until the environment changes.
 */
const char *CB_OCR_tessdata_directory(void);
void CB_OCR_delete(CB_OCR *ocr);

/**
 * The most threads Tesseract's OpenMP runtime gives one parallel region: OMP_THREAD_LIMIT as the runtime read it
 * when the process started (INT_MAX when unset), 1 when Tesseract runs without OpenMP. Setting the variable
 * later changes nothing, which is why LiveScan cannot set it for the app.
 */
int CB_OCR_thread_limit(void);

/** Page segmentation modes used by LiveScan (Tesseract's PSM values). */
typedef enum CB_PageSegmentation {
    CB_PSM_AUTO = 3,        /* a page: Tesseract's own layout analysis */
    CB_PSM_SINGLE_LINE = 7, /* the rectangle holds one line of text */
    CB_PSM_SPARSE = 11      /* as much text as possible, in no order */
} CB_PageSegmentation;

/**
 * Recognises text in `rect` of the image (NULL = the whole image), upscaled by `scale` first
 * (1 = as is; small text reads better at 2). Quads are in the image's pixels.
 * Free with CB_TextLines_free.
 */
CB_Status CB_OCR_recognize(CB_OCR *ocr, const CB_Image *image, const CB_Rect *rect,
                           int mode /* a CB_PageSegmentation */, float scale, CB_TextLine **out_lines,
                           size_t *out_count);
void CB_TextLines_free(CB_TextLine *lines, size_t count);

/**
 * Reads the quadrilateral `quad` (corners as CB_Quad orders them: the text's top-left first) as one line
 * (PSM 7): cut out upright in colour with cv::warpPerspective (bicubic, edges replicated), its sides the longer of each
 * opposite pair, scaled so that its short side is `height` pixels (0 = as cut). A quad at least 1.5 times taller
 * than wide is turned a quarter counter-clockwise first, as PaddleOCR turns its crops. The words' quads, and each
 * line's quad around its words, are mapped back into the image's pixels. Free with CB_TextLines_free.
 */
CB_Status CB_OCR_recognize_quad(CB_OCR *ocr, const CB_Image *image, const CB_Quad *quad, float height,
                                CB_TextLine **out_lines, size_t *out_count);

/* ---- Text localisation: where lines of text are, before reading them ---------------------- */

typedef struct CB_TextRegionOptions {
    int max_dimension; /* the frame is analysed at most this large (long side); 0 = as is */
    int min_height;    /* in source pixels: smaller regions are dropped */
    int max_height;    /* in source pixels: larger regions are dropped; 0 = no limit */
} CB_TextRegionOptions;

/**
 * Finds candidate text lines by morphological gradient, thresholding and horizontal closing,
 * then keeps wide, low regions with text-like stroke density. Free with CB_Rects_free.
 */
CB_Status CB_TextRegions_find(const CB_Image *image, const CB_TextRegionOptions *options, CB_Rect **out_rects,
                              size_t *out_count);
void CB_Rects_free(CB_Rect *rects);

/* ---- Scene text detection: PP-OCRv4's DB detector through OpenCV dnn ---------------------------- */

typedef struct CB_TextDetector CB_TextDetector;

/** PaddleOCR's DB post-processing knobs; CB_TextDetectorOptions_default gives rapidocr 1.4.4's values. */
typedef struct CB_TextDetectorOptions {
    int short_side;         /* the network reads the image with its short side scaled to this, each side rounded
                               to a multiple of 32, enlarged at most twice (default 736: 1312x736 for 720p) */
    int max_long_side;      /* ...and its long side at most this; 0 = no limit (default 2560) */
    float binary_threshold; /* a pixel is text above this probability (default 0.3) */
    float box_threshold;    /* a region is kept when its mean probability is at least this (default 0.5) */
    float unclip_ratio;     /* regions are grown by area * ratio / perimeter on each side (default 1.6) */
    int min_height;         /* boxes whose short side is under this many source pixels are dropped (default 0) */
    int keeps_network;      /* 1: the network made for this input size is kept for the detector's next call at the
                               same size (a video's frames: its making, 25 ms, and the faulting-in of its 150-277 MB
                               of buffers are saved), freed at another size or with the detector; 0 (default): made
                               for this call and freed before it returns (images of many sizes, peak RSS) */
} CB_TextDetectorOptions;

CB_TextDetectorOptions CB_TextDetectorOptions_default(void);

typedef struct CB_TextBox {
    CB_Quad quad; /* an oriented rectangle in the image's (stored) pixels, its corners in the order of the upright
                     picture (Exif orientation applied): of its two left-most corners there the upper is first */
    float score;  /* the mean text probability inside it, 0..1 */
} CB_TextBox;

/**
 * Loads the detector once from an ONNX file: PP-OCRv4's DB model as `make setup` rewrites it for OpenCV 4.6
 * (models/ppocr-v4-det-opencv.onnx, scripts/fetch-models.sh). CB_MODEL_MISSING, naming `make setup`, when the
 * file is absent or does not load.
 */
CB_Status CB_TextDetector_new(const char *model_path, CB_TextDetector **out_detector);
void CB_TextDetector_delete(CB_TextDetector *detector);
/**
 * The text boxes of `image`, looked for on the picture turned upright by its Exif orientation: words and lines at
 * any angle, each an oriented rectangle, in no particular order. A close crop (CB_TextDetector_close_crop_margin)
 * is looked at with that margin of its own edge pixels; when no box (at least `min_height` tall) is found in it, the
 * whole picture is its one box, with score 0.
 * About 320 ms at 960x544 and 640 ms at 1312x736 on one core (OpenCV's dnn uses the threads cv::setNumThreads
 * allows). `*out_count` may be 0. Free the array with CB_TextBoxes_free.
 */
CB_Status CB_TextDetector_detect(CB_TextDetector *detector, const CB_Image *image,
                                 const CB_TextDetectorOptions *options, CB_TextBox **out_boxes, size_t *out_count);
void CB_TextBoxes_free(CB_TextBox *boxes);
/**
 * The margin CB_TextDetector_detect gives a picture of `width` x `height` pixels: its short side when the picture
 * is a close crop (that short side is under a quarter of `options->short_side`: a word or a line cut out, its ink
 * at the edges), else 0.
 */
int CB_TextDetector_close_crop_margin(int width, int height, const CB_TextDetectorOptions *options);

/* ---- Scene text recognition: PP-OCRv6 small's line recogniser through OpenCV dnn --------------------- */

typedef struct CB_LineReader CB_LineReader;

/**
 * Loads PP-OCRv6 small's line recogniser (SVTR, CTC; Latin, Chinese and Japanese script) as `make setup` rewrites
 * it for OpenCV 4.6: `narrow_model_path` and `wide_model_path`, the same network read at input widths 320 and 640
 * (models/ppocr-v6-rec-opencv-320.onnx, -640.onnx), and `keys_path`, its character list
 * (models/ppocr-v6-rec-keys.txt). The files are read now; each network is made the first time a line needs it.
 * CB_MODEL_MISSING, naming `make setup`, when a file is absent or does not load.
 */
CB_Status CB_LineReader_new(const char *narrow_model_path, const char *wide_model_path, const char *keys_path,
                            CB_LineReader **out_reader);
void CB_LineReader_delete(CB_LineReader *reader);
/**
 * Reads the quadrilateral `quad` (corners as CB_Quad orders them: the text's top-left first) as one line, cut out
 * upright as CB_OCR_recognize_quad cuts it, scaled to 48 pixels tall and read in the narrower network it fits
 * (a line more than 640 / 48 times as wide as tall is squeezed to fit). `*out_line` is one CB_TextLine: its words
 * (split at the spaces the network read), each word's confidence the mean probability of its characters (0..100),
 * the line's that of all its characters; each word's quad spans the columns the network read it in, the line's
 * the whole crop. NULL when nothing was read. Free it with CB_TextLines_free(line, 1).
 * About 100 ms for a line up to 6.7 times as wide as tall, 240 ms for a wider one, on one core. Calls on one
 * reader from several threads take turns.
 */
CB_Status CB_LineReader_read_quad(CB_LineReader *reader, const CB_Image *image, const CB_Quad *quad,
                                  CB_TextLine **out_line);
/**
 * Frees the networks the reader has made (their weights and the buffers of their layers: once both widths have
 * read, 111 MB in a process that loads them alone, where PP-OCRv4's took 66 MB); the next read makes them again from
 * their files. For a caller done with a picture's lines, before other large work, such as the next picture's text
 * detector. Takes its turn with reads on other threads.
 */
void CB_LineReader_release_networks(CB_LineReader *reader);

/* ---- Annotation: items drawn over a frame (cv::polylines, cv::putText) ---------------------- */

/** What an annotation marks; it picks the colour (BGR): barcodes green, text orange. */
typedef enum CB_AnnotationKind {
    CB_ANNOTATION_BARCODE = 0,
    CB_ANNOTATION_TEXT = 1,
    CB_ANNOTATION_REGION = 2 /* the region of interest: outlined at its corners, not around them */
} CB_AnnotationKind;

typedef struct CB_Annotation {
    CB_Quad quad;      /* the item's corners in the image's pixels */
    int kind;          /* one CB_AnnotationKind */
    const char *label; /* UTF-8, borrowed for the call; NULL draws no label. Untrusted: Hershey fonts draw
                          ASCII only, so control and non-ASCII characters become '?'; cut to 40 characters. */
} CB_Annotation;

/**
 * Draws `count` annotations on a new copy of `image`; `image` itself is never changed, since frames are
 * shared between threads. Each quad is outlined a few pixels outside its corners (barcodes: around the quad
 * enlarged by 8% a side, clear of the quiet zone), so the symbol stays readable in the output; line width
 * and font grow with the image. Each label sits in a filled box just above or below its outline, wherever
 * it covers least of the other items and labels, always inside the image. Free the copy with
 * CB_Image_delete. CB_INVALID_ARGUMENT for an unknown kind or a corner that is not a finite number.
 */
CB_Status CB_Image_copy_annotated(const CB_Image *image, const CB_Annotation *annotations, size_t count,
                                  CB_Image **out_image);

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
