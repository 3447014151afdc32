// The barcodes one read collects and hands to the caller as CB_Barcodes, and what each owns.
#include "BarcodeResults.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace cbridge {

void freeContents(CB_Barcode &barcode) {
    std::free(barcode.text);
    std::free(barcode.bytes);
    std::free(barcode.sequence_id);
}

BarcodeList::~BarcodeList() {
    for (auto &barcode : barcodes) {
        freeContents(barcode);
    }
}

std::vector<CB_Quad> BarcodeList::quads() const {
    std::vector<CB_Quad> quads;
    for (const auto &barcode : barcodes) {
        quads.push_back(barcode.quad);
    }
    return quads;
}

void BarcodeList::translate(float dx, float dy) {
    for (auto &barcode : barcodes) {
        for (int corner = 0; corner < 4; ++corner) {
            barcode.quad.x[corner] += dx;
            barcode.quad.y[corner] += dy;
        }
    }
}

void BarcodeList::append(const ZXing::Barcode &result, double scale, const CB_Quad *quadOverride) {
    int format = formatFlag(result);
    std::string text = result.text();
    std::vector<uint8_t> bytes = result.bytes();
    std::string identifier = result.symbologyIdentifier();
    const bool eanUPC = ZXing::Symbology(result.format()) == ZXing::BarcodeFormat::EANUPC;
    // zxing-cpp 3 gives UPC-A and UPC-E as the 13 digits of the EAN-13 they equal (ISO/IEC 15420's content for
    // ]E0); LiveScan reports the digits printed, as 1.4 did: UPC-A's 12, UPC-E's 8 (then any add-on's).
    const bool leadingZero = !text.empty() && text.front() == '0';
    if (format == CB_FORMAT_EAN13 && leadingZero && (wanted & CB_FORMAT_UPCA) != 0) {
        format = CB_FORMAT_UPCA;
    }
    if (format == CB_FORMAT_UPCA && leadingZero && text.size() >= 13) {
        text.erase(0, 1);
    } else if (format == CB_FORMAT_UPCE && !result.extra(ZXing::BarcodeExtra::UPCE).empty()) {
        text = result.extra(ZXing::BarcodeExtra::UPCE) + result.extra(ZXing::BarcodeExtra::EanAddOn);
    }
    // Add-ons are kept with EAN-13 and UPC-A (books, periodicals). Every one zxing-cpp found next to a UPC-E on
    // the corpora was false (15 images: print beside the bars), and ISO/IEC 15420 gives EAN-8 none.
    const std::string addOn = result.extra(ZXing::BarcodeExtra::EanAddOn);
    if (!addOn.empty() && (format == CB_FORMAT_UPCE || format == CB_FORMAT_EAN8) && text.size() > addOn.size()) {
        text.erase(text.size() - addOn.size());
        identifier = format == CB_FORMAT_EAN8 ? "]E4" : "]E0";
    }
    if (eanUPC) {
        bytes.assign(text.begin(), text.end());  // EAN/UPC payloads are their digits
    }
    if ((format & wanted) == 0) {
        return;  // not asked for
    }

    CB_Barcode barcode{};
    barcode.format = format;
    barcode.sequence_index = result.sequenceSize() > 0 ? result.sequenceIndex() : -1;
    barcode.sequence_size = std::max(result.sequenceSize(), 0);
    barcode.line_count = (format & linearFormats) != 0 ? std::max(result.lineCount(), 1) : 0;
    barcode.quad = quadOverride != nullptr ? *quadOverride : quadOf(result.position(), {0, 0}, scale);
    std::strncpy(barcode.symbology_identifier, identifier.c_str(), sizeof(barcode.symbology_identifier) - 1);
    barcodes.push_back(barcode);  // owned from here on, so the allocations below cannot leak
    auto &owned = barcodes.back();
    owned.bytes = static_cast<uint8_t *>(std::malloc(std::max<size_t>(bytes.size(), 1)));
    if (owned.bytes == nullptr) {
        throw std::bad_alloc();
    }
    std::copy(bytes.begin(), bytes.end(), owned.bytes);
    owned.byte_count = bytes.size();
    owned.text = copyString(text);
    owned.text_length = text.size();
    if (result.isPartOfSequence()) {
        owned.sequence_id = copyString(result.sequenceId());
    }
}

std::vector<std::string> BarcodeList::texts() const {
    std::vector<std::string> texts;
    for (const auto &barcode : barcodes) {
        texts.emplace_back(barcode.text, barcode.text_length);
    }
    return texts;
}

CB_Status BarcodeList::release(CB_Barcode **out_barcodes, size_t *out_count) {
    *out_barcodes = nullptr;
    *out_count = 0;
    if (barcodes.empty()) {
        return CB_OK;
    }
    auto *array = static_cast<CB_Barcode *>(std::calloc(barcodes.size(), sizeof(CB_Barcode)));
    if (array == nullptr) {
        return fail(CB_ENGINE_FAILED, "out of memory");
    }
    std::copy(barcodes.begin(), barcodes.end(), array);
    *out_barcodes = array;
    *out_count = barcodes.size();
    barcodes.clear();
    return CB_OK;
}

}  // namespace cbridge
