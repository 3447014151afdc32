// Exif orientation: how a photo's stored pixels are turned to be shown upright. A phone held upright stores its
// sensor's landscape pixels and says "turn me a quarter" in the file instead of turning them.
#include "Internal.hpp"

#include <opencv2/core.hpp>

#include <algorithm>
#include <cstring>

namespace cbridge {

namespace {

/// Where the upright picture's point (u, v) is in the stored picture of size `stored` (Exif 2.32, table 6:
/// 1 as stored, 2 mirrored, 3 turned half, 4 flipped, 5 transposed, 6 turned a quarter clockwise, 7 transversed,
/// 8 turned a quarter anticlockwise to be shown).
cv::Point2f storedPoint(int exif, cv::Point2f upright, cv::Size stored) {
    const float u = upright.x, v = upright.y, width = float(stored.width), height = float(stored.height);
    switch (exif) {
    case 2: return {width - u, v};
    case 3: return {width - u, height - v};
    case 4: return {u, height - v};
    case 5: return {v, u};
    case 6: return {v, height - u};
    case 7: return {width - v, height - u};
    case 8: return {width - v, u};
    default: return upright;
    }
}

/// The rectangle spanned by two opposite corners mapped by `map` (a quarter turn or a mirror keeps it a rectangle).
template <typename Map>
cv::Rect2f mapped(const cv::Rect2f &rect, Map map) {
    const cv::Point2f a = map(rect.tl()), b = map(rect.br());
    return {cv::Point2f(std::min(a.x, b.x), std::min(a.y, b.y)), cv::Point2f(std::max(a.x, b.x), std::max(a.y, b.y))};
}

}  // namespace

cv::Mat Orientation::upright(const cv::Mat &stored) const {
    cv::Mat turned;
    switch (exif) {
    case 2: cv::flip(stored, turned, 1); break;
    case 3: cv::rotate(stored, turned, cv::ROTATE_180); break;
    case 4: cv::flip(stored, turned, 0); break;
    case 5: cv::transpose(stored, turned); break;
    case 6: cv::rotate(stored, turned, cv::ROTATE_90_CLOCKWISE); break;
    case 7:
        cv::transpose(stored, turned);
        cv::rotate(turned, turned, cv::ROTATE_180);
        break;
    case 8: cv::rotate(stored, turned, cv::ROTATE_90_COUNTERCLOCKWISE); break;
    default: turned = stored; break;
    }
    return turned;
}

cv::Point2f Orientation::toStored(cv::Point2f point, cv::Size stored) const { return storedPoint(exif, point, stored); }

cv::Rect2f Orientation::toStored(const cv::Rect2f &rect, cv::Size stored) const {
    return mapped(rect, [&](cv::Point2f point) { return toStored(point, stored); });
}

cv::Rect2f Orientation::toUpright(const cv::Rect2f &rect, cv::Size stored) const {
    // The stored picture is the upright one of the inverse turn: a quarter clockwise (6) and anticlockwise (8)
    // undo each other, every other orientation undoes itself; the upright picture's sides are the stored ones,
    // swapped by a quarter turn or a transposition (5 to 8).
    const int inverse = exif == 6 ? 8 : exif == 8 ? 6 : exif;
    const cv::Size upright = exif >= 5 ? cv::Size(stored.height, stored.width) : stored;
    return mapped(rect, [&](cv::Point2f point) { return storedPoint(inverse, point, upright); });
}

Orientation exifOrientation(const std::vector<uint8_t> &jpeg) {
    Orientation found;
    if (jpeg.size() < 4 || jpeg[0] != 0xFF || jpeg[1] != 0xD8) {
        return found;
    }
    // Marker segments from the start: APP1 "Exif\0\0" holds a TIFF header, then IFD0's 12-byte entries.
    size_t at = 2;
    while (at + 4 <= jpeg.size() && jpeg[at] == 0xFF) {
        const uint8_t marker = jpeg[at + 1];
        if (marker == 0xFF) {
            ++at;
            continue;
        }
        if (marker == 0xDA || marker == 0xD9) {
            break;  // the scan data: no metadata after it
        }
        const size_t length = size_t(jpeg[at + 2]) << 8 | jpeg[at + 3];
        const size_t end = std::min(jpeg.size(), at + 2 + length);
        const size_t tiff = at + 10;
        if (marker == 0xE1 && tiff + 8 <= end && std::memcmp(&jpeg[at + 4], "Exif\0\0", 6) == 0) {
            const bool little = jpeg[tiff] == 'I';
            const auto read = [&](size_t offset, int bytes) -> uint32_t {
                uint32_t value = 0;
                for (int index = 0; index < bytes; ++index) {
                    const uint32_t byte = jpeg[offset + (little ? bytes - 1 - index : index)];
                    value = value << 8 | byte;
                }
                return value;
            };
            const size_t ifd = tiff + read(tiff + 4, 4);
            if (ifd < tiff || ifd + 2 > end) {
                return found;
            }
            const size_t entries = read(ifd, 2);
            for (size_t entry = ifd + 2; entry + 12 <= end && entry < ifd + 2 + 12 * entries; entry += 12) {
                if (read(entry, 2) == 0x0112 && read(entry + 2, 2) == 3 /* SHORT */) {
                    const int value = int(read(entry + 8, 2));
                    found.exif = value >= 1 && value <= 8 ? value : 1;
                    return found;
                }
            }
            return found;
        }
        at += 2 + length;
    }
    return found;
}

}  // namespace cbridge
