// A reader over a libFuzzer input for the CBridge targets: values are taken from the front, little-endian,
// and a read past the end yields zeros, so every input is a valid (if short) description. Plain layout on
// purpose: seeds can be written by hand or by a ten-line script, unlike FuzzedDataProvider's.
#pragma once

#include "CBridge.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace fuzz {

class Input {
public:
    Input(const uint8_t *data, size_t size) : data_(data), size_(size) {}

    uint8_t u8() { return static_cast<uint8_t>(raw(1)); }
    uint16_t u16() { return static_cast<uint16_t>(raw(2)); }
    int32_t i32() { return static_cast<int32_t>(static_cast<uint32_t>(raw(4))); }
    /// Any bit pattern: NaN, infinities, denormals and 3e38 come out as readily as ordinary numbers.
    float f32() {
        const uint32_t bits = static_cast<uint32_t>(raw(4));
        float value;
        std::memcpy(&value, &bits, sizeof value);
        return value;
    }
    std::string bytes(size_t count) {
        count = count < remaining() ? count : remaining();
        std::string text(reinterpret_cast<const char *>(data_ + offset_), count);
        offset_ += count;
        return text;
    }
    const uint8_t *rest() const { return data_ + offset_; }
    size_t remaining() const { return size_ - offset_; }

private:
    uint64_t raw(size_t width) {
        uint64_t value = 0;
        for (size_t index = 0; index < width; ++index) {
            const uint64_t byte = offset_ < size_ ? data_[offset_++] : 0;
            value |= byte << (8 * index);
        }
        return value;
    }

    const uint8_t *data_;
    size_t size_;
    size_t offset_ = 0;
};

/// Every result array is freed as the header says; a leak or double free here is one in the app too.
inline void exerciseBarcodes(const CB_Image *image, const CB_BarcodeOptions &options) {
    CB_Barcode *barcodes = nullptr;
    size_t count = 0;
    if (CB_Barcode_read(image, &options, &barcodes, &count) == CB_OK) {
        for (size_t index = 0; index < count; ++index) {
            // Touch what the Swift side reads, so ASan sees any bad pointer or length.
            volatile size_t length = std::strlen(barcodes[index].text);
            volatile uint8_t sum = 0;
            for (size_t byte = 0; byte < barcodes[index].byte_count; ++byte) sum += barcodes[index].bytes[byte];
            (void)length;
            (void)sum;
        }
        CB_Barcodes_free(barcodes, count);
    } else if (barcodes != nullptr || count != 0) {
        __builtin_trap();  // a failed call must leave nothing to free
    }
}

inline void exerciseTextRegions(const CB_Image *image, const CB_TextRegionOptions &options) {
    CB_Rect *rects = nullptr;
    size_t count = 0;
    if (CB_TextRegions_find(image, &options, &rects, &count) == CB_OK) {
        const int width = CB_Image_width(image), height = CB_Image_height(image);
        for (size_t index = 0; index < count; ++index) {
            const CB_Rect &rect = rects[index];
            // The header promises rects in the image: OCR crops them next.
            if (rect.x < 0 || rect.y < 0 || rect.width < 0 || rect.height < 0 || rect.x + rect.width > width ||
                rect.y + rect.height > height) {
                __builtin_trap();
            }
        }
    }
    CB_Rects_free(rects);
}

}  // namespace fuzz
