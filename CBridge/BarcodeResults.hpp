// zxing-cpp plumbing shared by Barcode.cpp and QRCode.cpp.
#pragma once

#include "Internal.hpp"

#define ZX_USE_UTF8
#include <ZXing/ReadBarcode.h>

#include <vector>

namespace cbridge {

/// Owns CB_Barcodes while they are collected, so an exception half-way leaks nothing.
class BarcodeList {
public:
    BarcodeList() = default;
    BarcodeList(const BarcodeList &) = delete;
    BarcodeList &operator=(const BarcodeList &) = delete;
    ~BarcodeList();

    void append(const ZXing::Result &result, double scale, const CB_Quad *quadOverride = nullptr);
    /// Moves every quad by (dx, dy): from a region's pixels to the whole image's.
    void translate(float dx, float dy);
    bool empty() const { return barcodes.empty(); }
    /// Moves the barcodes into one calloc'ed array for the caller (CB_Barcodes_free releases it).
    CB_Status release(CB_Barcode **out_barcodes, size_t *out_count);

private:
    std::vector<CB_Barcode> barcodes;
};

ZXing::DecodeHints decodeHints(int formats, bool tryHarder, bool tryRotate);
ZXing::Results readBarcodes(const cv::Mat &gray, const ZXing::DecodeHints &hints);

}  // namespace cbridge
