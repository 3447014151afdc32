// libFuzzer target: corrupt and random image files through CB_Image_open (header check, cv::imdecode: PNG, JPEG,
// BMP, WebP, PNM, TIFF, ...) and then every analysis a decoded frame goes through. CB_Image_open takes a path, so each
// input is written to one temp file per process; nothing is added to CBridge for the fuzzer.
#include "FuzzInput.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace {

// Analyses cost time in proportion to the pixels: past this the fuzzer would spend its budget on a few
// huge inputs. Decoding itself is still fuzzed at any size cv::imread accepts.
constexpr long maxAnalysedPixels = 2000L * 2000L;
// cv::QRCodeDetector::detectMulti is the slowest call by far (tens of ms on a small frame under ASan).
constexpr long maxQRPixels = 640L * 480L;

const std::string &tempPath() {
    static const std::string path = [] {
        const char *directory = std::getenv("TMPDIR");
        return std::string(directory != nullptr && *directory != '\0' ? directory : "/tmp") + "/livescan-fuzz-image." +
               std::to_string(getpid());
    }();
    return path;
}

/// A cheap, stable digest of the input: it picks the options, so the image bytes stay a plain file that
/// any viewer opens, and one input always runs the same way.
uint32_t digest(const uint8_t *data, size_t size) {
    uint32_t hash = 2166136261u;
    for (size_t index = 0; index < size; ++index) hash = (hash ^ data[index]) * 16777619u;
    return hash;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string &path = tempPath();
    FILE *file = std::fopen(path.c_str(), "wb");
    if (file == nullptr) {
        std::perror("fuzz_image_decode: temp file");
        std::abort();
    }
    if (size > 0 && std::fwrite(data, 1, size, file) != size) {
        std::perror("fuzz_image_decode: write");
        std::abort();
    }
    std::fclose(file);

    CB_Image *image = nullptr;
    int truncated = -1;
    // The command's default limit: the header is checked before anything is decoded.
    const CB_Status status = CB_Image_open(path.c_str(), 100000000, &image, &truncated);
    if (status != CB_OK) {
        if (image != nullptr) __builtin_trap();  // a failed open must hand back nothing
        return 0;
    }
    if (truncated != 0 && truncated != 1) __builtin_trap();
    const int width = CB_Image_width(image), height = CB_Image_height(image);
    if (width <= 0 || height <= 0) __builtin_trap();  // an opened image is never empty
    if (static_cast<long>(width) * height > maxAnalysedPixels) {
        CB_Image_delete(image);
        return 0;
    }

    const uint32_t choice = digest(data, size);
    CB_BarcodeOptions barcodeOptions{};
    barcodeOptions.formats = CB_FORMAT_ALL;
    barcodeOptions.try_harder = (choice >> 0) & 1;
    barcodeOptions.try_rotate = (choice >> 1) & 1;
    barcodeOptions.try_inverted = (choice >> 2) & 1;
    static const int maxDimensions[] = {0, 0, 64, 640};
    barcodeOptions.max_dimension = maxDimensions[(choice >> 3) & 3];
    barcodeOptions.try_equalised = (choice >> 9) & 1;
    barcodeOptions.try_second_chances = (choice >> 10) & 1;
    fuzz::exerciseBarcodes(image, barcodeOptions);

    CB_TextRegionOptions regionOptions{};
    static const int regionDimensions[] = {0, 320, 1280, 7};
    regionOptions.max_dimension = regionDimensions[(choice >> 5) & 3];
    regionOptions.min_height = (choice >> 7) & 1 ? 8 : 0;
    regionOptions.max_height = (choice >> 8) & 1 ? 40 : 0;
    fuzz::exerciseTextRegions(image, regionOptions);

    double sharpness = -1;
    if (CB_Image_sharpness(image, &sharpness) == CB_OK && !(sharpness >= 0)) __builtin_trap();

    const size_t pixels = static_cast<size_t>(width) * static_cast<size_t>(height);
    auto *gray = static_cast<uint8_t *>(std::malloc(pixels));
    if (gray != nullptr) {
        CB_Image_copy_gray(image, gray, pixels);  // exactly the capacity it needs: ASan guards the end
        std::free(gray);
    }

    if (static_cast<long>(width) * height <= maxQRPixels) {
        CB_Barcode *barcodes = nullptr;
        size_t count = 0;
        if (CB_QR_locate_and_decode(image, &barcodes, &count) == CB_OK) CB_Barcodes_free(barcodes, count);
        CB_Quad *quads = nullptr;
        if (CB_QR_locate(image, &quads, &count) == CB_OK) CB_Quads_free(quads);
    }

    CB_Annotation annotation{};
    annotation.quad = CB_Quad{{0, float(width), float(width), 0}, {0, 0, float(height), float(height)}};
    annotation.kind = CB_ANNOTATION_BARCODE;
    annotation.label = "fuzz";
    CB_Image *annotated = nullptr;
    if (CB_Image_copy_annotated(image, &annotation, 1, &annotated) == CB_OK) CB_Image_delete(annotated);

    CB_Image_delete(image);
    return 0;
}
