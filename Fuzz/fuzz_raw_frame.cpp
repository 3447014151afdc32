// libFuzzer target: raw frames through CB_Image_new with any width, height, channels and stride (0,
// negative, huge: the bridge must answer with a status, never read out of bounds), then barcodes (whole or
// in a region), cell means, patch copy and location, text regions, annotation with any quads and labels (NaN,
// infinities, 3e38, control bytes) and, for small frames, Tesseract with any rectangle, scale and page segmentation
// mode (within a size it reads quickly).
//
// Input layout (little-endian, read from the front; a short input reads as zeros past its end):
//   u8  size mode    0: w,h = 1+u8, 1+u8   1: w,h = raw i32, i32   2: w,h from a table of edge values (u8, u8)
//                    3: w,h = 1+u16%2048, 1+u16%2048
//   u8  channels     index into a table of valid and invalid values
//   u8  stride mode  0: w*c   1: w*c + u8   2: raw i32   3: w*c - 1
//   u8  barcode bits 1 try_harder, 2 try_rotate, 4 try_inverted, 8 formats follow as raw i32 (else all),
//                    16 read only the region below, 32 try_second_chances, 64 along_picture_lines
//   [i32 formats]    i32 max_dimension
//   i32 region max_dimension, i32 min_height, i32 max_height
//   u8  annotations  count % 8; each: 8 x f32 quad (x0..x3, y0..y3), u8 kind (>=2 means raw i32 follows),
//                    u8 label length (255 = NULL label), label bytes
//   u8  ocr bits     1 run OCR (small frames only), 2 a rect follows as 4 x i32
//   [4 x i32 rect]   f32 scale, i32 page segmentation mode
//   i32 cell         for CB_Image_cell_means
//   4 x i32 region   the barcode region, a patch to copy (then, up to 160 px, located in the frame with its
//                    corners in the OCR rect's corner and at most 16 x 16 positions)
//   the rest         pixels, repeated to fill the frame (zeros if none)
#include "FuzzInput.hpp"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// Frames the contract allows but that would take the fuzzer's memory or time budget are skipped.
constexpr int64_t maxFrameBytes = 4L << 20;
// Tesseract costs tens of milliseconds even on a small crop; only tiny frames go to it. What it is given after
// scaling is bounded too: in single-line mode its time on noise grows with the line's length, not its area
// (`tesseract --psm 7` takes 4.5 s on a 1864 x 1 noise image and 20.7 s on 9216 x 1, against 0.26 s on
// 192 x 2), which timed CI's fuzz run out. That is Tesseract's cost, not a fault of the bridge.
constexpr int64_t maxOCRPixels = 96 * 96;
constexpr double maxOCRScaledSide = 192;

const int edgeSizes[] = {0, 1, 2, 3, -1, INT_MIN, INT_MAX, 32767, 32768, 32769, 65536, 1 << 24, 16, 640, -32768};
const int channelValues[] = {1, 3, 4, 1, 3, 4, 0, 2, 5, -1, 8, INT_MAX, INT_MIN, 255};

template <typename T, size_t N>
T pick(const T (&table)[N], uint8_t index) {
    return table[index % N];
}

/// What CBridge.h promises to accept; the bridge must refuse the rest before touching `pixels`.
bool withinContract(int width, int height, int channels, int stride) {
    return width > 0 && height > 0 && width <= 32768 && height <= 32768 &&
           (channels == 1 || channels == 3 || channels == 4) &&
           static_cast<int64_t>(stride) >= int64_t(width) * channels;
}

CB_OCR *sharedOCR() {
    // One instance for the whole run: Tesseract's Init costs 100+ ms. It is used by this thread only.
    static CB_OCR *ocr = [] {
        CB_OCR *made = nullptr;
        if (CB_OCR_new(nullptr, "eng", &made) != CB_OK) {
            std::fprintf(stderr, "fuzz_raw_frame: no OCR (%s); CB_OCR_recognize is not fuzzed\n", CB_last_error());
            return static_cast<CB_OCR *>(nullptr);
        }
        return made;
    }();
    return ocr;
}

CB_LineReader *sharedLineReader() {
    // One instance for the whole run, from the checkout's models/ (scripts/fuzz.sh runs from the checkout).
    static CB_LineReader *reader = [] {
        CB_LineReader *made = nullptr;
        if (CB_LineReader_new("models/libonnxruntime.so.1.32.0", "models/ppocr-v6-rec.onnx",
                              "models/ppocr-v6-rec-keys.txt", 1, &made) != CB_OK) {
            std::fprintf(stderr, "fuzz_raw_frame: no line reader (%s); CB_LineReader_read_quad is not fuzzed\n",
                         CB_last_error());
            return static_cast<CB_LineReader *>(nullptr);
        }
        return made;
    }();
    return reader;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    if (std::getenv("OMP_THREAD_LIMIT") == nullptr) {
        std::fprintf(stderr,
                     "fuzz_raw_frame: set OMP_THREAD_LIMIT=1 (scripts/fuzz.sh does): OCR is ~9x slower without\n");
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz::Input input(data, size);

    int width, height;
    switch (input.u8() % 4) {
    case 0: width = 1 + input.u8(), height = 1 + input.u8(); break;
    case 1: width = input.i32(), height = input.i32(); break;
    case 2: width = pick(edgeSizes, input.u8()), height = pick(edgeSizes, input.u8()); break;
    default: width = 1 + input.u16() % 2048, height = 1 + input.u16() % 2048; break;
    }
    const int channels = pick(channelValues, input.u8());
    int stride;
    const int64_t packed = int64_t(width) * channels;
    const int packedInt = packed > INT_MAX || packed < INT_MIN ? INT_MAX : int(packed);
    switch (input.u8() % 4) {
    case 0: stride = packedInt; break;
    case 1: stride = packedInt > INT_MAX - 255 ? packedInt : packedInt + input.u8(); break;
    case 2: stride = input.i32(); break;
    default: stride = packedInt == INT_MIN ? packedInt : packedInt - 1; break;
    }

    CB_BarcodeOptions barcodeOptions{};
    const uint8_t barcodeBits = input.u8();
    barcodeOptions.try_harder = barcodeBits & 1;
    barcodeOptions.try_rotate = (barcodeBits >> 1) & 1;
    barcodeOptions.try_inverted = (barcodeBits >> 2) & 1;
    barcodeOptions.try_second_chances = (barcodeBits >> 5) & 1;
    barcodeOptions.along_picture_lines = (barcodeBits >> 6) & 1;
    barcodeOptions.formats = (barcodeBits & 8) != 0 ? input.i32() : CB_FORMAT_ALL;
    barcodeOptions.max_dimension = input.i32();

    CB_TextRegionOptions regionOptions{};
    regionOptions.max_dimension = input.i32();
    regionOptions.min_height = input.i32();
    regionOptions.max_height = input.i32();

    const size_t annotationCount = input.u8() % 8;
    std::vector<CB_Annotation> annotations(annotationCount);
    std::vector<std::string> labels(annotationCount);
    for (size_t index = 0; index < annotationCount; ++index) {
        auto &annotation = annotations[index];
        for (float &x : annotation.quad.x) x = input.f32();
        for (float &y : annotation.quad.y) y = input.f32();
        const uint8_t kind = input.u8();
        annotation.kind = kind < 2 ? kind : input.i32();
        const uint8_t length = input.u8();
        labels[index] = input.bytes(length == 255 ? 0 : length);
        annotation.label = length == 255 ? nullptr : labels[index].c_str();  // NUL-terminated at the first 0
    }

    const uint8_t ocrBits = input.u8();
    CB_Rect rect{};
    const bool hasRect = (ocrBits & 2) != 0;
    if (hasRect) rect = CB_Rect{input.i32(), input.i32(), input.i32(), input.i32()};
    const float scale = input.f32();
    const int mode = input.i32();
    const int cell = input.i32();
    const CB_Rect region{input.i32(), input.i32(), input.i32(), input.i32()};

    // The pixel buffer is exactly as long as the contract says the bridge may read, so ASan flags a byte
    // more. Outside the contract the bridge may read nothing: it gets a one-byte buffer.
    const bool valid = withinContract(width, height, channels, stride);
    int64_t needed = 1;
    if (valid) {
        needed = int64_t(height - 1) * stride + packed;
        if (needed > maxFrameBytes) return 0;
    }
    std::vector<uint8_t> pixels(static_cast<size_t>(needed));
    if (input.remaining() > 0) {
        for (size_t index = 0; index < pixels.size(); ++index) pixels[index] = input.rest()[index % input.remaining()];
    }

    CB_Image *image = nullptr;
    const CB_Status status = CB_Image_new(pixels.data(), width, height, channels, stride, &image);
    if (!valid) {
        // Refusing is the only acceptable answer outside the documented range.
        if (status != CB_INVALID_ARGUMENT || image != nullptr) __builtin_trap();
        return 0;
    }
    if (status != CB_OK) {
        if (image != nullptr) __builtin_trap();
        return 0;
    }
    if (CB_Image_width(image) != width || CB_Image_height(image) != height) __builtin_trap();

    if ((barcodeBits & 16) != 0) {
        barcodeOptions.region = region;
    }
    fuzz::exerciseBarcodes(image, barcodeOptions);
    fuzz::exerciseTextRegions(image, regionOptions);

    // Cell means: never more cells than promised, never a byte past `capacity` (ASan).
    std::vector<uint8_t> means(static_cast<size_t>(width / 2) * static_cast<size_t>(height / 2) + 1);
    int columns = -1, rows = -1;
    if (CB_Image_cell_means(image, cell, means.data(), means.size(), &columns, &rows) == CB_OK &&
        (columns != width / cell || rows != height / cell)) {
        __builtin_trap();
    }
    CB_Image *patch = nullptr;
    if (CB_Image_copy_patch(image, region, &patch) == CB_OK) {
        float x = 0, y = 0;
        double score = 0;
        // Corners anywhere, but few of them, and small patches: a search costs its area times the patch's.
        const CB_Rect corners{rect.x, rect.y, static_cast<int>(static_cast<unsigned>(rect.width) % 17),
                              static_cast<int>(static_cast<unsigned>(rect.height) % 17)};
        if (CB_Image_width(patch) <= 160 && CB_Image_height(patch) <= 160 &&
            CB_Image_locate_patch(patch, image, corners, &x, &y, &score) == CB_OK &&
            !(score >= -1.001 && score <= 1.001)) {
            __builtin_trap();
        }
        CB_Image_delete(patch);
    } else if (patch != nullptr) {
        __builtin_trap();
    }

    CB_Image *annotated = nullptr;
    if (CB_Image_copy_annotated(image, annotations.data(), annotations.size(), &annotated) == CB_OK) {
        if (CB_Image_width(annotated) != width || CB_Image_height(annotated) != height) __builtin_trap();
        CB_Image_delete(annotated);
    } else if (annotated != nullptr) {
        __builtin_trap();
    }

    if ((ocrBits & 1) != 0 && int64_t(width) * height <= maxOCRPixels && width * double(scale) <= maxOCRScaledSide &&
        height * double(scale) <= maxOCRScaledSide) {
        if (CB_OCR *ocr = sharedOCR()) {
            CB_TextLine *lines = nullptr;
            size_t count = 0;
            if (CB_OCR_recognize(ocr, image, hasRect ? &rect : nullptr, static_cast<int>(mode), scale, &lines,
                                 &count) == CB_OK) {
                CB_TextLines_free(lines, count);
            }
        }
    }

    // The first annotation's quad, anything at all, read as a line: one run in eight (a read costs 100 ms).
    if ((ocrBits & 28) == 28 && !annotations.empty() && int64_t(width) * height <= maxOCRPixels) {
        if (CB_LineReader *reader = sharedLineReader()) {
            CB_TextLine *line = nullptr;
            if (CB_LineReader_read_quad(reader, image, &annotations[0].quad, &line) == CB_OK) {
                if (line != nullptr && (line->text == nullptr || line->word_count == 0)) __builtin_trap();
                CB_TextLines_free(line, 1);
            } else if (line != nullptr) {
                __builtin_trap();
            }
        }
    }

    CB_Image_delete(image);
    return 0;
}
