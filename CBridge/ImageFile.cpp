// Image files: the size read from the header before anything is decoded, so that a small file that claims a
// huge picture (a 150 KB PNG of 30000 x 30000 pixels decodes into 3.6 GB) is refused for the cost of its first
// bytes; and a file that ends before its picture does is told apart from a whole one.
#include "Internal.hpp"
#include "OpenCVOnDemand.hpp"

#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

namespace {

using Bytes = std::vector<uint8_t>;

struct PictureSize {
    int64_t width;
    int64_t height;
};

uint32_t bigEndian(const Bytes &data, size_t at, int count) {
    uint32_t value = 0;
    for (int index = 0; index < count; ++index) {
        value = (value << 8) | data[at + index];
    }
    return value;
}

uint32_t littleEndian(const Bytes &data, size_t at, int count) {
    uint32_t value = 0;
    for (int index = count - 1; index >= 0; --index) {
        value = (value << 8) | data[at + index];
    }
    return value;
}

bool startsWith(const Bytes &data, const char *prefix, size_t at = 0) {
    const size_t length = std::strlen(prefix);
    return data.size() >= at + length && std::memcmp(data.data() + at, prefix, length) == 0;
}

/// Hands each marker segment of a JPEG, from the start, to `visit(marker, offset of its 0xFF)` until it returns
/// true; stops at bytes that are not a marker, or at the end.
template <typename Visit>
void forEachJPEGSegment(const Bytes &data, Visit visit) {
    size_t at = 2;
    while (at + 4 <= data.size() && data[at] == 0xFF) {
        const uint8_t marker = data[at + 1];
        if (marker == 0xFF) {  // fill byte
            ++at;
            continue;
        }
        if (visit(marker, at)) {
            return;
        }
        at += 2 + bigEndian(data, at + 2, 2);
    }
}

/// JPEG: the frame header (SOF0...SOF15 but DHT, JPG and DAC), walked to segment by segment.
std::optional<PictureSize> jpegSize(const Bytes &data) {
    std::optional<PictureSize> size;
    forEachJPEGSegment(data, [&](uint8_t marker, size_t at) {
        if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
            if (at + 9 < data.size()) {
                size = PictureSize{bigEndian(data, at + 7, 2), bigEndian(data, at + 5, 2)};
            }
            return true;
        }
        return marker == 0xDA || marker == 0xD9;  // scan data or the end before any frame header
    });
    return size;
}

/// TIFF: ImageWidth (256) and ImageLength (257) of the first directory, the page imread decodes.
std::optional<PictureSize> tiffSize(const Bytes &data) {
    const bool little = data[0] == 'I';
    auto read = [&](size_t at, int count) -> uint32_t {
        if (at + count > data.size()) {
            throw std::out_of_range("TIFF directory outside the file");
        }
        return little ? littleEndian(data, at, count) : bigEndian(data, at, count);
    };
    try {
        const size_t directory = read(4, 4);
        const uint32_t entries = read(directory, 2);
        int64_t width = -1, height = -1;
        for (uint32_t entry = 0; entry < entries && entry < 4096; ++entry) {
            const size_t at = directory + 2 + entry * 12;
            const uint32_t tag = read(at, 2), type = read(at + 2, 2);
            const uint32_t value = type == 3 ? read(at + 8, 2) : read(at + 8, 4);
            if (tag == 256) width = value;
            if (tag == 257) height = value;
        }
        if (width >= 0 && height >= 0) {
            return PictureSize{width, height};
        }
    } catch (const std::out_of_range &) {
    }
    return std::nullopt;
}

/// PNM (P1...P6): width and height are the first two numbers after the magic, comments skipped.
std::optional<PictureSize> pnmSize(const Bytes &data) {
    size_t at = 2;
    int64_t numbers[2] = {-1, -1};
    for (auto &number : numbers) {
        while (at < data.size() && (std::isspace(data[at]) || data[at] == '#')) {
            if (data[at] == '#') {
                while (at < data.size() && data[at] != '\n') ++at;
            } else {
                ++at;
            }
        }
        int64_t value = 0;
        size_t digits = 0;
        while (at < data.size() && std::isdigit(data[at]) && digits < 12) {
            value = value * 10 + (data[at++] - '0');
            ++digits;
        }
        if (digits == 0) {
            return std::nullopt;
        }
        number = value;
    }
    return PictureSize{numbers[0], numbers[1]};
}

/// The picture size a file's header announces, for the formats OpenCV reads on Debian 12; nullopt for a format
/// not known here (OpenCV's own limit, 2^30 pixels, still applies to those).
std::optional<PictureSize> announcedSize(const Bytes &data) {
    if (data.size() < 32) {
        return std::nullopt;
    }
    if (startsWith(data, "\x89PNG\r\n\x1a\n") && startsWith(data, "IHDR", 12)) {
        return PictureSize{bigEndian(data, 16, 4), bigEndian(data, 20, 4)};
    }
    if (data[0] == 0xFF && data[1] == 0xD8) {
        return jpegSize(data);
    }
    if (startsWith(data, "BM")) {
        return PictureSize{static_cast<int32_t>(littleEndian(data, 18, 4)),
                           std::abs(static_cast<int64_t>(static_cast<int32_t>(littleEndian(data, 22, 4))))};
    }
    if (startsWith(data, "RIFF") && startsWith(data, "WEBP", 8)) {
        if (startsWith(data, "VP8 ", 12)) {
            return PictureSize{littleEndian(data, 26, 2) & 0x3FFF, littleEndian(data, 28, 2) & 0x3FFF};
        }
        if (startsWith(data, "VP8L", 12)) {
            const uint32_t bits = littleEndian(data, 21, 4);
            return PictureSize{1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)};
        }
        if (startsWith(data, "VP8X", 12)) {
            return PictureSize{1 + littleEndian(data, 24, 3), 1 + littleEndian(data, 27, 3)};
        }
        return std::nullopt;
    }
    const bool littleTIFF = data[0] == 'I' && data[1] == 'I' && data[2] == 42 && data[3] == 0;
    const bool bigTIFF = data[0] == 'M' && data[1] == 'M' && data[2] == 0 && data[3] == 42;
    if (littleTIFF || bigTIFF) {
        return tiffSize(data);
    }
    if (data[0] == 'P' && data[1] >= '1' && data[1] <= '6') {
        return pnmSize(data);
    }
    return std::nullopt;
}

/// Whether the file stops before its picture ends: a JPEG without its end-of-image marker after the scan data
/// (entropy-coded data never holds FF D9: an FF there is always followed by 00 or a restart marker), a PNG
/// without its IEND chunk. libjpeg decodes a cut JPEG with its missing rows grey and says so only as a warning.
bool isTruncated(const Bytes &data) {
    if (data.size() >= 4 && data[0] == 0xFF && data[1] == 0xD8) {
        bool truncated = false;
        forEachJPEGSegment(data, [&](uint8_t marker, size_t at) {
            if (marker != 0xDA) {
                return false;
            }
            static const uint8_t endOfImage[] = {0xFF, 0xD9};
            truncated =
                std::search(data.begin() + at, data.end(), std::begin(endOfImage), std::end(endOfImage)) == data.end();
            return true;
        });
        return truncated;
    }
    if (startsWith(data, "\x89PNG\r\n\x1a\n")) {
        static const uint8_t iend[] = {'I', 'E', 'N', 'D'};
        return std::search(data.begin(), data.end(), std::begin(iend), std::end(iend)) == data.end();
    }
    return false;
}

/// The image file `data` holds, decoded after its header is checked against `max_pixels`: CB_Image_open's and
/// CB_Image_decode's one way of reading an image.
CB_Status decodeFile(const Bytes &data, int64_t max_pixels, CB_Image **out_image, int *out_truncated) {
    if (const auto size = announcedSize(data)) {
        if (size->width <= 0 || size->height <= 0) {
            return cbridge::fail(CB_OPEN_FAILED, "not a readable image (its header says it has no pixels)");
        }
        if (const auto tooLarge = cbridge::pixelLimitExceeded(size->width, size->height, max_pixels)) {
            return cbridge::fail(CB_TOO_LARGE, *tooLarge);
        }
    }
    // The stored pixels, not turned by their Exif orientation: positions are reported in them, as every barcode
    // reader and labelled set gives them; the picture keeps its orientation for reading text upright.
    cv::Mat pixels = cbridge::decodeImage(data, cv::IMREAD_COLOR | cv::IMREAD_IGNORE_ORIENTATION);
    if (pixels.empty()) {
        return cbridge::fail(CB_OPEN_FAILED, isTruncated(data) ? "the file is truncated (cut short)"
                                                               : "not a readable image (corrupt or not an image)");
    }
    *out_truncated = isTruncated(data) ? 1 : 0;
    auto image = std::make_unique<CB_Image>(std::move(pixels));
    image->orientation = cbridge::exifOrientation(data);
    *out_image = image.release();
    return CB_OK;
}

}  // namespace

extern "C" CB_Status CB_Image_open(const char *path, int64_t max_pixels, CB_Image **out_image, int *out_truncated) {
    CB_TRY
    CB_REQUIRE(path != nullptr && *path != '\0' && out_image != nullptr && out_truncated != nullptr,
               "CB_Image_open: empty path");
    *out_image = nullptr;
    *out_truncated = 0;
    std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path, "rbe"), &std::fclose);
    if (!file) {
        return cbridge::fail(CB_OPEN_FAILED, std::strerror(errno));
    }
    Bytes data;
    uint8_t chunk[1 << 16];
    size_t count;
    while ((count = std::fread(chunk, 1, sizeof chunk, file.get())) > 0) {
        data.insert(data.end(), chunk, chunk + count);
    }
    if (std::ferror(file.get())) {
        return cbridge::fail(CB_OPEN_FAILED, std::strerror(errno));
    }
    return decodeFile(data, max_pixels, out_image, out_truncated);
    CB_CATCH
}

extern "C" CB_Status CB_Image_decode(const uint8_t *bytes, size_t count, int64_t max_pixels, CB_Image **out_image,
                                     int *out_truncated) {
    CB_TRY
    CB_REQUIRE(bytes != nullptr && count > 0 && out_image != nullptr && out_truncated != nullptr,
               "CB_Image_decode: no bytes");
    *out_image = nullptr;
    *out_truncated = 0;
    return decodeFile(Bytes(bytes, bytes + count), max_pixels, out_image, out_truncated);
    CB_CATCH
}
