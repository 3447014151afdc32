// The CB_Format flags and zxing-cpp's formats and options: which symbology each flag reads, the reader's
// options for a set of flags, and a result's flag, read and corners.
#include "BarcodeResults.hpp"

#include <opencv2/imgproc.hpp>

#include <utility>
#include <vector>

namespace cbridge {

namespace {

using ZXing::BarcodeFormat;

struct FlagFormat {
    int flag;
    BarcodeFormat format;
};

/// What each CB_Format flag reads: its zxing-cpp 3 symbology, less the variants LiveScan has a flag of their own
/// for (Micro QR within QR Code; EAN-8, UPC-A, UPC-E within EAN/UPC; DataBar Expanded within DataBar). Not read:
/// stand-alone EAN-2/EAN-5, which LiveScan has no symbology for.
constexpr FlagFormat readFormats[] = {
    {CB_FORMAT_AZTEC, BarcodeFormat::Aztec},  // Aztec Code and Aztec Rune
    {CB_FORMAT_CODABAR, BarcodeFormat::Codabar},
    {CB_FORMAT_CODE39, BarcodeFormat::Code39},  // standard, full ASCII, Code 32, PZN
    {CB_FORMAT_CODE93, BarcodeFormat::Code93},
    {CB_FORMAT_CODE128, BarcodeFormat::Code128},
    {CB_FORMAT_DATABAR, BarcodeFormat::DataBarOmni},
    {CB_FORMAT_DATABAR, BarcodeFormat::DataBarStk},
    {CB_FORMAT_DATABAR, BarcodeFormat::DataBarStkOmni},
    {CB_FORMAT_DATABAR, BarcodeFormat::DataBarLtd},
    {CB_FORMAT_DATABAR_EXPANDED, BarcodeFormat::DataBarExp},
    {CB_FORMAT_DATABAR_EXPANDED, BarcodeFormat::DataBarExpStk},
    {CB_FORMAT_DATAMATRIX, BarcodeFormat::DataMatrix},
    {CB_FORMAT_EAN8, BarcodeFormat::EAN8},
    {CB_FORMAT_EAN13, BarcodeFormat::EAN13},
    {CB_FORMAT_ITF, BarcodeFormat::ITF},  // and ITF-14
    {CB_FORMAT_MAXICODE, BarcodeFormat::MaxiCode},
    {CB_FORMAT_PDF417, BarcodeFormat::PDF417},  // and Compact PDF417, MicroPDF417
    {CB_FORMAT_QRCODE, BarcodeFormat::QRCodeModel1},
    {CB_FORMAT_QRCODE, BarcodeFormat::QRCodeModel2},
    {CB_FORMAT_QRCODE, BarcodeFormat::RMQRCode},
    {CB_FORMAT_UPCA, BarcodeFormat::UPCA},
    {CB_FORMAT_UPCE, BarcodeFormat::UPCE},
    {CB_FORMAT_MICROQRCODE, BarcodeFormat::MicroQRCode},
    {CB_FORMAT_TELEPEN, BarcodeFormat::Telepen},  // Telepen Alpha and Telepen Numeric
    {CB_FORMAT_DXFILMEDGE, BarcodeFormat::DXFilmEdge},
};

constexpr int flagsRead() {
    int flags = 0;
    for (const auto &entry : readFormats) {
        flags |= entry.flag;
    }
    return flags;
}
static_assert(flagsRead() == CB_FORMAT_ALL, "every CB_Format flag reads some zxing-cpp format");
static_assert((CB_FORMAT_DEFAULT & CB_FORMAT_TELEPEN) == 0 && (CB_FORMAT_DEFAULT & CB_FORMAT_DXFILMEDGE) == 0,
              "the opt-in formats are read only when asked for by name");

}  // namespace

ZXing::ReaderOptions readerOptions(int formats, bool tryHarder, bool tryRotate, bool tryInvert, bool tryDownscale) {
    const int wanted = formats == 0 ? CB_FORMAT_DEFAULT : formats;
    std::vector<BarcodeFormat> zxingFormats;
    // Both DataBar flags are DataBar's every variant: named by its symbology. zxing-cpp's DataBar reader asks
    // ReaderOptions::hasFormat(DataBarOmni) and hasFormat(DataBar) on every row it scans, each a walk along this list
    // (which zxing-cpp sorts by symbology key: DataBar's lower-case 'e' after the upper-case ones) until an entry
    // matches. With the variants listed one by one, the second walked the list to its end: the two took about 0.38 s
    // of CPU in a barcodes-only scan of the 1-minute bench video, 0.17 s with the symbology (perf samples).
    constexpr int bothDataBars = CB_FORMAT_DATABAR | CB_FORMAT_DATABAR_EXPANDED;
    const bool allDataBars = (wanted & bothDataBars) == bothDataBars;
    if (allDataBars) {
        zxingFormats.push_back(BarcodeFormat::DataBar);
    }
    for (const auto &entry : readFormats) {
        if ((wanted & entry.flag) != 0 && !(allDataBars && (entry.flag & bothDataBars) != 0)) {
            zxingFormats.push_back(entry.format);
        }
    }
    ZXing::ReaderOptions options;
    options.setFormats(ZXing::BarcodeFormats(std::move(zxingFormats)));
    options.setTryHarder(tryHarder);
    options.setTryRotate(tryRotate);
    options.setTryInvert(tryInvert);
    // Its own image pyramid reads 3 more of the corpora's 1,372 codes and costs 2-4 ms more a 720p frame (25 %
    // at balanced): the caller chooses (CB_BarcodeOptions.try_downscale).
    options.setTryDownscale(tryDownscale);
    // The decoded text itself (ECI / character set applied), as 1.4 gave it: not the default HRI, which
    // rewrites GS1 element strings as "(01)..." and escapes control characters in binary payloads.
    options.setTextMode(ZXing::TextMode::Plain);
    // An EAN-2/EAN-5 add-on next to an EAN/UPC symbol is read with it: its digits follow the main ones.
    options.setEanAddOnSymbol(ZXing::EanAddOnSymbol::Read);
    return options;
}

int formatFlag(const ZXing::Barcode &result) {
    const BarcodeFormat format = result.format();
    switch (ZXing::Symbology(format)) {
    case BarcodeFormat::Aztec: return CB_FORMAT_AZTEC;
    case BarcodeFormat::Codabar: return CB_FORMAT_CODABAR;
    case BarcodeFormat::Code39: return CB_FORMAT_CODE39;
    case BarcodeFormat::Code93: return CB_FORMAT_CODE93;
    case BarcodeFormat::Code128: return CB_FORMAT_CODE128;
    case BarcodeFormat::DataBar:
        return format == BarcodeFormat::DataBarExp || format == BarcodeFormat::DataBarExpStk
                   ? CB_FORMAT_DATABAR_EXPANDED
                   : CB_FORMAT_DATABAR;
    case BarcodeFormat::DataMatrix: return CB_FORMAT_DATAMATRIX;
    case BarcodeFormat::EANUPC:
        switch (format) {
        case BarcodeFormat::EAN8: return CB_FORMAT_EAN8;
        case BarcodeFormat::EAN13:
        case BarcodeFormat::ISBN: return CB_FORMAT_EAN13;
        case BarcodeFormat::UPCA: return CB_FORMAT_UPCA;
        case BarcodeFormat::UPCE: return CB_FORMAT_UPCE;
        default: return CB_FORMAT_NONE;  // a stand-alone add-on
        }
    case BarcodeFormat::ITF: return CB_FORMAT_ITF;
    case BarcodeFormat::MaxiCode: return CB_FORMAT_MAXICODE;
    case BarcodeFormat::PDF417: return CB_FORMAT_PDF417;
    case BarcodeFormat::QRCode: return format == BarcodeFormat::MicroQRCode ? CB_FORMAT_MICROQRCODE : CB_FORMAT_QRCODE;
    case BarcodeFormat::Telepen: return CB_FORMAT_TELEPEN;
    case BarcodeFormat::OtherBarcode:  // ISO/IEC 15424's "other barcode" ('X'): DX film edge is a variant of it
        return format == BarcodeFormat::DXFilmEdge ? CB_FORMAT_DXFILMEDGE : CB_FORMAT_NONE;
    default: return CB_FORMAT_NONE;
    }
}

ZXing::Barcodes readBarcodes(const cv::Mat &gray, const ZXing::ReaderOptions &options) {
    CV_Assert(gray.type() == CV_8UC1);  // rows may be a region's: the view takes their stride
    const ZXing::ImageView view(gray.data, gray.cols, gray.rows, ZXing::ImageFormat::Lum, static_cast<int>(gray.step));
    return ZXing::ReadBarcodes(view, options);
}

CB_Quad quadOf(const ZXing::Position &position, cv::Point2f offset, double scale) {
    const ZXing::PointI corners[4] = {position.topLeft(), position.topRight(), position.bottomRight(),
                                      position.bottomLeft()};
    CB_Quad quad;
    for (int corner = 0; corner < 4; ++corner) {
        quad.x[corner] = static_cast<float>((corners[corner].x + offset.x) * scale);
        quad.y[corner] = static_cast<float>((corners[corner].y + offset.y) * scale);
    }
    return quad;
}

}  // namespace cbridge
