/* CBridge: text: Tesseract, the edge locator, the learned detector and line recogniser. Ownership, errors and threads:
 * CBridge.h. */
#ifndef LIVESCAN_CBTEXT_H
#define LIVESCAN_CBTEXT_H

#include "CBImage.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* ---- Scene text detection: PP-OCRv4's DB detector through ONNX Runtime ------------------------- */

/**
 * The learned networks (CB_TextDetector, CB_LineReader) run each call on the `threads` given when they are made: the
 * caller's thread and `threads - 1` of a pool made with the network, which block while idle (1: the caller's alone).
 * 1 to CB_MAX_NETWORK_THREADS; CB_INVALID_ARGUMENT otherwise.
 */
#define CB_MAX_NETWORK_THREADS 64

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
    int keeps_network;      /* 1: the buffers of this call's network run are kept for the next (a video's frames:
                               the faulting-in of its 150-280 MB is saved); 0 (default): given back before it
                               returns (images of many sizes, peak RSS) */
    int max_input_pixels;   /* the network reads at most this many pixels at once: a larger input is read as
                               side-by-side strips (128 columns of overlap each) whose probability maps are joined, at
                               the same scale, its buffers bounded; 0 (default) = the whole input at once */
} CB_TextDetectorOptions;

CB_TextDetectorOptions CB_TextDetectorOptions_default(void);

typedef struct CB_TextBox {
    CB_Quad quad; /* an oriented rectangle in the image's (stored) pixels, its corners in the order of the upright
                     picture (Exif orientation applied): of its two left-most corners there the upper is first */
    float score;  /* the mean text probability inside it, 0..1 */
} CB_TextBox;

/**
 * Loads the detector once from an ONNX file, PP-OCRv4's DB model (models/ppocr-v4-det.onnx,
 * scripts/fetch-models.sh), run by the ONNX Runtime library at `runtime_path` (models/libonnxruntime.so.1.32.0,
 * loaded once per process, the first path given, and kept loaded), on `threads` threads (CB_MAX_NETWORK_THREADS).
 * CB_MODEL_MISSING, naming `make setup`, when a file is absent or does not load.
 */
CB_Status CB_TextDetector_new(const char *runtime_path, const char *model_path, int threads,
                              CB_TextDetector **out_detector);
void CB_TextDetector_delete(CB_TextDetector *detector);
/**
 * The text boxes of `image`, looked for on the picture turned upright by its Exif orientation: words and lines at
 * any angle, each an oriented rectangle, in no particular order. A close crop (CB_TextDetector_close_crop_margin)
 * is looked at with that margin of its own edge pixels; when no box (at least `min_height` tall) is found in it, the
 * whole picture is its one box, with score 0.
 * About 125 ms at 960x544 and 250 ms at 1312x736 on one core, the calling thread's; calls from several threads
 * run at once. `*out_count` may be 0. Free the array with CB_TextBoxes_free. With a `cancellation` (NULL: none),
 * CB_CANCELLED when it is asked for before or during the call: the network's run ends within a few milliseconds.
 */
CB_Status CB_TextDetector_detect(CB_TextDetector *detector, const CB_Image *image,
                                 const CB_TextDetectorOptions *options, CB_Cancellation *cancellation,
                                 CB_TextBox **out_boxes, size_t *out_count);
void CB_TextBoxes_free(CB_TextBox *boxes);
/**
 * The margin CB_TextDetector_detect gives a picture of `width` x `height` pixels: its short side when the picture
 * is a close crop (that short side is under a quarter of `options->short_side`: a word or a line cut out, its ink
 * at the edges), else 0.
 */
int CB_TextDetector_close_crop_margin(int width, int height, const CB_TextDetectorOptions *options);

/* ---- Scene text recognition: PP-OCRv6 small's line recogniser through ONNX Runtime ------------------- */

typedef struct CB_LineReader CB_LineReader;

/**
 * Loads PP-OCRv6 small's line recogniser (SVTR, CTC; Latin, Chinese and Japanese script): `model_path`, its ONNX
 * file (models/ppocr-v6-rec.onnx), run by the ONNX Runtime library at `runtime_path` (as CB_TextDetector_new), and
 * `keys_path`, its character list (models/ppocr-v6-rec-keys.txt), on `threads` threads (CB_MAX_NETWORK_THREADS).
 * CB_MODEL_MISSING, naming `make setup`, when a file is absent or does not load.
 */
CB_Status CB_LineReader_new(const char *runtime_path, const char *model_path, const char *keys_path, int threads,
                            CB_LineReader **out_reader);
void CB_LineReader_delete(CB_LineReader *reader);
/**
 * Reads the quadrilateral `quad` (corners as CB_Quad orders them: the text's top-left first) as one line, cut out
 * upright as CB_OCR_recognize_quad cuts it, scaled to 48 pixels tall and padded to 320 or 640 columns, the narrower
 * it fits (a line more than 640 / 48 times as wide as tall is squeezed to fit). `*out_line` is one CB_TextLine: its
 * words (split at the spaces the network read), each word's confidence the mean probability of its characters (0..100),
 * the line's that of all its characters; each word's quad spans the columns the network read it in, the line's
 * the whole crop. NULL when nothing was read. Free it with CB_TextLines_free(line, 1).
 * About 25 ms for a line up to 6.7 times as wide as tall, 50 ms for a wider one, on one core. Calls on one
 * reader from several threads take turns.
 */
CB_Status CB_LineReader_read_quad(CB_LineReader *reader, const CB_Image *image, const CB_Quad *quad,
                                  CB_TextLine **out_line);
/**
 * Frees the network the reader has made (its weights and the buffers of its layers); the next read makes it again
 * from its file. For a caller done with a picture's lines, before other large work, such as the next picture's text
 * detector. Takes its turn with reads on other threads.
 */
void CB_LineReader_release_networks(CB_LineReader *reader);

#ifdef __cplusplus
}
#endif

#endif
