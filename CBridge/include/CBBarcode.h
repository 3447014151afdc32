/* CBridge: barcodes (zxing-cpp 3.1) and QR codes located by OpenCV. Ownership, errors and threads: CBridge.h. */
#ifndef LIVESCAN_CBBARCODE_H
#define LIVESCAN_CBBARCODE_H

#include "CBImage.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif
