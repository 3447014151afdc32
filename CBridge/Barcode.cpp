#include "Internal.hpp"
#include "BarcodeResults.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <string>
#include <tuple>
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

namespace {

/// Whether bars follow either end of the EAN/UPC symbol from `start` to `end` (the middle of its first and last
/// bar on the read's row, in `gray`'s pixels) where an add-on would be: rows across the bars' height, sampled from 3
/// to 62 modules past the end (a gap of 7-12, then 20 or 47 modules), each crossing at least 10 edges of good
/// contrast. Most codes have none, and blank paper there costs a few hundred samples instead of a read.
bool barsWhereAnAddOnWouldBe(const cv::Mat &gray, cv::Point2f start, cv::Point2f end) {
    constexpr int minEdges = 10, rows = 7;
    constexpr double minContrast = 40;
    const double length = cv::norm(end - start);
    if (length < 20) {
        return false;
    }
    const cv::Point2f along = (end - start) / float(length), across(-along.y, along.x);
    const float module = float(length / 95);
    for (const auto &[from, direction] : {std::pair{end, along}, std::pair{start, -along}}) {
        for (int row = 0; row < rows; ++row) {
            const cv::Point2f origin = from + across * float((row - rows / 2) * 0.12 * length);
            std::vector<uint8_t> samples;
            for (float step = 3 * module; step <= 62 * module; step += std::max(0.5f, module / 2)) {
                const cv::Point2f point = origin + direction * step;
                const int x = int(std::lround(point.x)), y = int(std::lround(point.y));
                if (x < 0 || y < 0 || x >= gray.cols || y >= gray.rows) {
                    break;
                }
                samples.push_back(gray.at<uint8_t>(y, x));
            }
            if (samples.size() < 8) {
                continue;
            }
            const auto [low, high] = std::minmax_element(samples.begin(), samples.end());
            if (*high - *low < minContrast) {
                continue;
            }
            const int middle = (*low + *high) / 2;
            int edges = 0;
            for (size_t index = 1; index < samples.size(); ++index) {
                edges += (samples[index - 1] < middle) != (samples[index] < middle) ? 1 : 0;
            }
            if (edges >= minEdges) {
                return true;
            }
        }
    }
    return false;
}

/// The ends of a read's line (its top edge: the first and last bar), in the pixels its position is in.
std::pair<cv::Point2f, cv::Point2f> lineEnds(const ZXing::Position &position) {
    return {cv::Point2f(float(position.topLeft().x), float(position.topLeft().y)),
            cv::Point2f(float(position.topRight().x), float(position.topRight().y))};
}

}  // namespace

std::optional<std::pair<ZXing::Barcode, cv::Point2f>> readAddOn(const cv::Mat &gray, const ZXing::Barcode &result,
                                                                const ZXing::ReaderOptions &caller, bool wholeImage) {
    const auto [left, right] = lineEnds(result.position());
    return readAddOn(gray, result, left, right, caller, wholeImage);
}

std::optional<std::pair<ZXing::Barcode, cv::Point2f>> readAddOn(const cv::Mat &gray, const ZXing::Barcode &result,
                                                                cv::Point2f left, cv::Point2f right,
                                                                const ZXing::ReaderOptions &caller, bool wholeImage) {
    // zxing-cpp 3 gives both as 13 digits, then an add-on's (its EanAddOn extra may name one it did not append).
    constexpr size_t mainDigits = 13;
    const int format = formatFlag(result);  // an ISBN is an EAN-13 (978/979)
    if ((format != CB_FORMAT_EAN13 && format != CB_FORMAT_UPCA) || result.text().size() != mainDigits) {
        return std::nullopt;
    }
    if (!barsWhereAnAddOnWouldBe(gray, left, right)) {
        return std::nullopt;
    }
    cv::Rect around(0, 0, gray.cols, gray.rows);
    if (!wholeImage) {
        // Along the code, the add-on starts 7-12 modules past its 95 and is 20 or 47 long: within 0.7 of its
        // length beyond either end (a code upside down has it on the left). Across, the bars are shorter than the
        // code is long, wherever on them the read's rows were.
        const cv::Point2f centre = (left + right) * 0.5f, along = right - left;
        const cv::Point2f across(-along.y, along.x);
        std::vector<cv::Point2f> corners;
        for (const float a : {-1.2f, 1.2f}) {
            for (const float b : {-0.6f, 0.6f}) {
                corners.push_back(centre + along * a + across * b);
            }
        }
        around = cv::boundingRect(corners) & around;
        if (around.width < 8 || around.height < 8) {
            return std::nullopt;
        }
    }
    ZXing::ReaderOptions options = caller;
    // The code's own symbology only: a result of another is not taken below, and the other readers (every 2-D one,
    // every other linear one) would scan the area for nothing: 3 % of the CPU of a barcodes-only scan of the
    // 1-minute bench video.
    options.setFormats(readerOptions(format, false, false, false).formats());
    options.setEanAddOnSymbol(ZXing::EanAddOnSymbol::Require);
    options.setTryDownscale(false);
    // The add-on and the 5-module quiet zone after it end inside the picture (whichever way the code runs): at its
    // edge an EAN-5 may be cut short, and its first two digits then read as an EAN-2 (two ISBN photos of the zxing
    // corpus, "57" and "96").
    const double margin = 5 * cv::norm(right - left) / 95;  // modules
    const auto inside = [&](const ZXing::PointI &corner) {
        const double x = corner.x + around.x, y = corner.y + around.y;
        return x >= margin && y >= margin && x <= gray.cols - 1 - margin && y <= gray.rows - 1 - margin;
    };
    for (auto &again : readBarcodes(gray(around), options)) {
        const auto &position = again.position();
        if (again.isValid() && formatFlag(again) == format && again.text().size() > mainDigits &&
            again.text().rfind(result.text(), 0) == 0 && inside(position.topLeft()) && inside(position.topRight()) &&
            inside(position.bottomRight()) && inside(position.bottomLeft())) {
            return std::make_pair(std::move(again), cv::Point2f(float(around.x), float(around.y)));
        }
    }
    return std::nullopt;
}

namespace {

// zxing-cpp's 1-D readers, trying harder, scan every max(1, height / 512)-th row of the image they are given and,
// with tryRotate, every max(1, width / 512)-th column (ODReader.cpp's rowStep): a 720p frame's every row and every
// other column, a 1080p frame's every other row and every third column.
constexpr int zxingLinesPerSide = 512;

/// The spacing of those lines across a side of `side` pixels.
int lineStep(int side) { return std::max(1, side / zxingLinesPerSide); }

/// A linear code read on a share of an image's lines: zxing-cpp's result and its corners (top left, top right,
/// bottom right, bottom left) in the image's pixels.
struct LineRead {
    ZXing::Barcode barcode;
    std::array<cv::Point2f, 4> corners;
};

/// Whether reading `gray`, a region of a picture of `picture`'s size, along the picture's lines would scan fewer of
/// them than zxing-cpp scans of the region itself (which it spaces by the region's size).
bool picturesLinesAreSparser(cv::Size region, cv::Size picture, bool tryRotate) {
    return lineStep(picture.height) > lineStep(region.height) ||
           (tryRotate && lineStep(picture.width) > lineStep(region.width));
}

/// The linear codes `options` asks for in `gray`, a region of a picture of `picture`'s size, read along its rows
/// and (`tryRotate`) columns as zxing-cpp spaces them in the whole picture, not in the region: a region of a
/// frame is read on the lines a read of the whole frame crosses it with. zxing-cpp spaces a region's by the
/// region's size, every row and column of a small one: a region of a 720p frame was read along twice as many
/// columns as the frame.
std::vector<LineRead> readAlongPicturesLines(const cv::Mat &gray, cv::Size picture, ZXing::ReaderOptions options,
                                             bool tryRotate) {
    std::vector<LineRead> reads;
    options.setTryRotate(false);  // each pass below is a view whose rows are the lines to scan
    const auto corners = [](const ZXing::Position &position, auto &&toGray) {
        return std::array<cv::Point2f, 4>{toGray(position.topLeft()), toGray(position.topRight()),
                                          toGray(position.bottomRight()), toGray(position.bottomLeft())};
    };
    const int step = static_cast<int>(gray.step);
    const int rowStep = lineStep(picture.height);
    const ZXing::ImageView rows(gray.data, gray.cols, (gray.rows + rowStep - 1) / rowStep, ZXing::ImageFormat::Lum,
                                step * rowStep, 1);
    for (auto &result : ZXing::ReadBarcodes(rows, options)) {
        const auto toGray = [&](ZXing::PointI point) { return cv::Point2f(float(point.x), float(point.y * rowStep)); };
        reads.push_back({result, corners(result.position(), toGray)});
    }
    if (tryRotate) {
        // zxing-cpp's own view of the columns (ImageView::rotated(90): row r is column r, read from the bottom up),
        // every columnStep-th of them; a point maps back as ODReader.cpp maps its rotated reads.
        const int columnStep = lineStep(picture.width);
        const ZXing::ImageView columns(gray.ptr(gray.rows - 1), gray.rows, (gray.cols + columnStep - 1) / columnStep,
                                       ZXing::ImageFormat::Lum, columnStep, -step);
        for (auto &result : ZXing::ReadBarcodes(columns, options)) {
            const auto toGray = [&](ZXing::PointI point) {
                return cv::Point2f(float(point.y * columnStep), float(gray.rows - 1 - point.x));
            };
            reads.push_back({result, corners(result.position(), toGray)});
        }
    }
    return reads;
}

}  // namespace

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

namespace {

/// A code one pass read (ReadPass, below): zxing-cpp's result and the factor that maps its position into `gray`'s
/// pixels, 1 but for a pass that reads `gray` resized.
struct PassRead {
    ZXing::Barcode barcode;
    double toGray = 1;
};

/// What a pass is given: the picture, the caller's options, and the codes the passes before it read.
struct PassInput {
    const cv::Mat &gray;
    const CB_BarcodeOptions &options;
    /// The CB_Format flags asked for (never 0).
    int wanted;
    /// Whether a region's linear codes are read along the picture's lines (readAlongPicturesLines), not by a pass.
    bool alongPicturesLines;
    const std::vector<PassRead> &read;
};

std::vector<PassRead> readAsIs(ZXing::Barcodes results) {
    std::vector<PassRead> reads;
    for (auto &result : results) {
        reads.push_back({std::move(result), 1});
    }
    return reads;
}

/// The plain pass: the picture as it is, every format asked for but the linear codes read along the picture's
/// lines, with all the caller's knobs.
int plainFormats(const PassInput &input) {
    return input.alongPicturesLines ? input.wanted & ~linearFormats : input.wanted;
}

std::vector<PassRead> readPlain(const PassInput &input, int formats) {
    const auto &options = input.options;
    return readAsIs(readBarcodes(input.gray, readerOptions(formats, options.try_harder != 0, options.try_rotate != 0,
                                                           options.try_inverted != 0, options.try_downscale != 0)));
}

/// The contrast-equalised pass (try_equalised): the 2-D codes asked for. zxing-cpp's local binariser takes an 8 x 8
/// block whose grey levels span fewer than 24 for flat: in an underexposed photo, or one whose exposure a bright
/// spot or glare set, a code's modules can differ by less, and no edge is found. CLAHE stretches the levels of each
/// tile of an 8 x 8 grid over the picture, blending neighbouring tiles' mappings; its clip limit of 2 keeps noise
/// from being stretched into edges. On the BoofCV QR photos: 116 -> 122 codes (bright spots 1 -> 5 of 12, glare
/// 1 -> 2, non-compliant 3 -> 4), none where no label is; on the zxing and zxing-cpp corpora one Data Matrix more.
/// Linear formats are not looked for: equalised, the corpora's EAN/UPC photos read 14 codes more but also false
/// ones (an EAN-8 inside an EAN-13's bars, an EAN-13 beside a UPC-A): a linear code's check is one digit, a 2-D
/// code's is error correction.
int equalisedFormats(const PassInput &input) {
    return input.options.try_equalised != 0 ? input.wanted & ~linearFormats : 0;
}

std::vector<PassRead> readEqualised(const PassInput &input, int formats) {
    cv::Mat equalised;
    cv::createCLAHE(2.0, cv::Size(8, 8))->apply(input.gray, equalised);
    // Once, as it is: it costs a 12-megapixel photo 0.25 s of CPU (0.72-0.78 -> 0.98-1.00 s, 4 alternated
    // runs). Inverted and through zxing-cpp's downscaled passes as well, it read nothing more on BoofCV's photos
    // and took that photo's scan from 1.25 to 3.1 s (one run each).
    return readAsIs(readBarcodes(equalised, readerOptions(formats, input.options.try_harder != 0,
                                                          input.options.try_rotate != 0, false)));
}

/// The 2-D formats, matrix and stacked, that get second chances: read from an area of modules, which the binarizer
/// must resolve. Not Micro QR: small by design (at most 17 modules a side), halved it blurs away, and looking for it
/// there cost the BoofCV hand-held Micro QR video frame recall (0.930 -> 0.911).
constexpr int secondChanceFormats = CB_FORMAT_AZTEC | CB_FORMAT_DATAMATRIX | CB_FORMAT_PDF417 | CB_FORMAT_QRCODE;

/// The second chances (try_second_chances): the second-chance formats asked for that no pass before found, looked
/// for in the picture resized, with the caller's knobs, not zxing-cpp's downscaled passes. A format found is found:
/// of each, a second chance takes the first code it reads.
int missingSecondChanceFormats(const PassInput &input) {
    if (input.options.try_second_chances == 0) {
        return 0;
    }
    int missing = input.wanted & secondChanceFormats;
    for (const auto &read : input.read) {
        missing &= ~formatFlag(read.barcode);
    }
    return missing;
}

std::vector<PassRead> readSecondChance(const cv::Mat &resized, const PassInput &input, int missing,
                                       ZXing::Binarizer binarizer) {
    ZXing::ReaderOptions options = readerOptions(missing, input.options.try_harder != 0, input.options.try_rotate != 0,
                                                 input.options.try_inverted != 0);
    options.setBinarizer(binarizer);
    std::vector<PassRead> found;
    for (auto &result : readBarcodes(resized, options)) {
        if (result.isValid() && (formatFlag(result) & missing) != 0) {
            missing &= ~formatFlag(result);
            found.push_back({std::move(result), static_cast<double>(input.gray.cols) / resized.cols});
        }
    }
    return found;
}

/// The first second chance: the picture halved with INTER_AREA, which averages away noise, blur and picture texture
/// inside the modules (photo-filled "design" codes, large noisy photos).
int halvedFormats(const PassInput &input) {
    constexpr int minShortSideToHalve = 64;
    return std::min(input.gray.cols, input.gray.rows) >= minShortSideToHalve ? missingSecondChanceFormats(input) : 0;
}

std::vector<PassRead> readHalved(const PassInput &input, int formats) {
    cv::Mat half;
    cv::resize(input.gray, half, cv::Size((input.gray.cols + 1) / 2, (input.gray.rows + 1) / 2), 0, 0, cv::INTER_AREA);
    return readSecondChance(half, input, formats, ZXing::Binarizer::LocalAverage);
}

/// The second second chance, for pictures whose long side is at most 640 px: the picture doubled (INTER_CUBIC),
/// read with the GlobalHistogram binarizer: modules a few pixels wide are too fine for LocalAverage's 8x8 blocks
/// (small images, curved QR codes, a PDF417 photographed at 2 px a module). Costs 4-9 ms on a 640x480 frame; skipped
/// above that (7-21 ms at 720p).
int doubledFormats(const PassInput &input) {
    constexpr int maxLongSideToDouble = 640;
    return std::max(input.gray.cols, input.gray.rows) <= maxLongSideToDouble ? missingSecondChanceFormats(input) : 0;
}

std::vector<PassRead> readDoubled(const PassInput &input, int formats) {
    cv::Mat twice;
    cv::resize(input.gray, twice, cv::Size(input.gray.cols * 2, input.gray.rows * 2), 0, 0, cv::INTER_CUBIC);
    return readSecondChance(twice, input, formats, ZXing::Binarizer::GlobalHistogram);
}

/// One read of the picture: the CB_Format flags it looks for, given what it is given (0: it does not run), and its
/// reading of them. Nothing is caught: each reads a picture of a size zxing-cpp, cv::resize and CLAHE take (a side of
/// 1 to 65535 pixels), so what throws is what the plain read would throw (running out of memory, a library's bug),
/// which CB_Barcode_read reports, not "nothing found".
struct ReadPass {
    int (*looksFor)(const PassInput &input);
    std::vector<PassRead> (*read)(const PassInput &input, int formats);
};

/// The passes, in order, as zxing-cpp's ReadBarcodes reads its pyramid's layers, each also inverted: one after
/// another, each taking the codes no pass before it read (readAlready).
constexpr ReadPass readPasses[] = {
    {plainFormats, readPlain},
    {equalisedFormats, readEqualised},
    {halvedFormats, readHalved},
    {doubledFormats, readDoubled},
};

/// Whether `code` is one of the first `count` of `reads` read again: the same format and bytes, centred within half
/// `code`'s diagonal of it, in `gray`'s pixels. ReadBarcodes keeps the codes of its layers and inversions apart alike
/// (Barcode's operator==: the same format and bytes, the centre of one inside the other), and its rule keeps the
/// codes of one pass apart.
bool readAlready(const std::vector<PassRead> &reads, size_t count, const PassRead &code) {
    const CB_Quad quad = quadOf(code.barcode.position(), {0, 0}, code.toGray);
    const double diagonal = std::hypot(quad.x[2] - quad.x[0], quad.y[2] - quad.y[0]);
    return std::any_of(reads.begin(), reads.begin() + static_cast<std::ptrdiff_t>(count), [&](const PassRead &other) {
        return other.barcode.format() == code.barcode.format() && other.barcode.bytes() == code.barcode.bytes() &&
               cv::norm(centreOf(quadOf(other.barcode.position(), {0, 0}, other.toGray)) - centreOf(quad)) <
                   diagonal / 2;
    });
}

/// The valid codes the passes read in `gray`, in the order they read them.
std::vector<PassRead> readInPasses(const cv::Mat &gray, const CB_BarcodeOptions &options, int wanted,
                                   bool alongPicturesLines) {
    std::vector<PassRead> read;
    for (const ReadPass &pass : readPasses) {
        const PassInput input{gray, options, wanted, alongPicturesLines, read};
        const int formats = pass.looksFor(input);
        if (formats == 0) {
            continue;
        }
        const size_t before = read.size();
        for (auto &code : pass.read(input, formats)) {
            if (code.barcode.isValid() && !readAlready(read, before, code)) {
                read.push_back(std::move(code));
            }
        }
    }
    return read;
}

/// Appends the codes read, a complete structured-append sequence (every part in this image, one id) as one barcode:
/// its content is the parts' in order and its quad the smallest rectangle around all of them. Parts of an
/// incomplete sequence stay separate barcodes, as zxing-cpp read them. `scale` maps `gray`'s pixels to the list's.
void appendMergingSequences(const std::vector<PassRead> &reads, double scale, BarcodeList &barcodes) {
    using SequenceKey = std::tuple<int, std::string, int>;             // format, id, size
    std::map<SequenceKey, std::map<int, const PassRead *>> sequences;  // parts by index, one each
    for (const auto &read : reads) {
        const ZXing::Barcode &result = read.barcode;
        if (result.isPartOfSequence()) {
            sequences[{static_cast<int>(result.format()), result.sequenceId(), result.sequenceSize()}].emplace(
                result.sequenceIndex(), &read);
        } else {
            barcodes.append(result, scale * read.toGray);
        }
    }
    for (const auto &[key, parts] : sequences) {
        const int size = std::get<2>(key);
        const bool complete =
            static_cast<int>(parts.size()) == size && parts.begin()->first == 0 && parts.rbegin()->first == size - 1;
        if (!complete) {
            for (const auto &[index, part] : parts) {
                barcodes.append(part->barcode, scale * part->toGray);
            }
            continue;
        }
        // The corners first: MergeStructuredAppendSequence writes its result through the first part's data
        // (zxing-cpp 3.1.1's Barcode copies share it), clearing that part's position.
        std::vector<cv::Point2f> corners;
        ZXing::Barcodes inOrder;
        for (const auto &[index, part] : parts) {
            const double toList = scale * part->toGray;
            for (const auto &corner : part->barcode.position()) {
                corners.emplace_back(static_cast<float>(corner.x * toList), static_cast<float>(corner.y * toList));
            }
            inOrder.push_back(part->barcode);
        }
        const ZXing::Barcode merged = ZXing::MergeStructuredAppendSequence(inOrder);
        if (!merged.isValid()) {
            continue;  // only for parts of different ids or sizes, which the grouping above rules out
        }
        cv::Point2f box[4];
        cv::minAreaRect(corners).points(box);
        // minAreaRect's first corner depends on its angle; the quad starts top-left, clockwise.
        const auto byKey = [&](auto key) {
            return *std::min_element(box, box + 4, [&](auto a, auto b) { return key(a) < key(b); });
        };
        const cv::Point2f ordered[4] = {byKey([](cv::Point2f p) { return p.x + p.y; }),
                                        byKey([](cv::Point2f p) { return p.y - p.x; }),
                                        byKey([](cv::Point2f p) { return -(p.x + p.y); }),
                                        byKey([](cv::Point2f p) { return p.x - p.y; })};
        CB_Quad quad{};
        for (int corner = 0; corner < 4; ++corner) {
            quad.x[corner] = ordered[corner].x;
            quad.y[corner] = ordered[corner].y;
        }
        barcodes.append(merged, 1, &quad);
    }
}

}  // namespace

}  // namespace cbridge

extern "C" CB_Status CB_Barcode_read(const CB_Image *image, const CB_BarcodeOptions *options, CB_Barcode **out_barcodes,
                                     size_t *out_count) {
    CB_TRY
    CB_REQUIRE(image != nullptr && options != nullptr && out_barcodes != nullptr && out_count != nullptr,
               "CB_Barcode_read: NULL argument");
    *out_barcodes = nullptr;
    *out_count = 0;
    CB_REQUIRE((options->formats & ~CB_FORMAT_ALL) == 0, "CB_Barcode_read: unknown format flags");

    cv::Rect area(0, 0, image->width(), image->height());
    if (options->region.width > 0 && options->region.height > 0) {
        area &= cv::Rect(options->region.x, options->region.y, options->region.width, options->region.height);
        if (area.width < 8 || area.height < 8) {
            return CB_OK;  // nothing readable fits
        }
    }
    cv::Mat gray = image->gray()(area);  // a header: resizing below rebinds it, never writes
    double scale = 1;
    const int longSide = std::max(gray.cols, gray.rows);
    // zxing-cpp refuses images wider or taller than 65535 pixels: a sliver that long is read downscaled to fit.
    constexpr int zxingMaxSide = 65535;
    const int maxSide = options->max_dimension > 0 ? std::min(options->max_dimension, zxingMaxSide) : zxingMaxSide;
    if (longSide > maxSide) {
        scale = static_cast<double>(longSide) / maxSide;
        gray = cbridge::resized(gray, 1 / scale, cv::INTER_AREA);
    }
    const int wanted = options->formats == 0 ? CB_FORMAT_DEFAULT : options->formats;
    const auto zxingOptions = cbridge::readerOptions(wanted, options->try_harder != 0, options->try_rotate != 0,
                                                     options->try_inverted != 0, options->try_downscale != 0);
    cbridge::BarcodeList barcodes(wanted);
    const int linearWanted = wanted & cbridge::linearFormats;
    const cv::Size picture(static_cast<int>(std::lround(image->width() / scale)),
                           static_cast<int>(std::lround(image->height() / scale)));
    const bool alongPicturesLines = options->along_picture_lines != 0 && options->try_harder != 0 &&
                                    linearWanted != 0 &&
                                    cbridge::picturesLinesAreSparser(gray.size(), picture, options->try_rotate != 0);
    // The passes' codes and a region's linear codes along the picture's lines, then those codes' add-ons and
    // sequences, codes at any angle, and last the rules that settle reads of the same bars.
    std::vector<cbridge::PassRead> reads = cbridge::readInPasses(gray, *options, wanted, alongPicturesLines);
    std::vector<cbridge::LineRead> lineReads;
    if (alongPicturesLines) {
        lineReads = cbridge::readAlongPicturesLines(gray, picture,
                                                    cbridge::readerOptions(linearWanted, true, false,
                                                                           options->try_inverted != 0,
                                                                           options->try_downscale != 0),
                                                    options->try_rotate != 0);
    }
    // A code also read with its add-on, on rows that cross it, needs no second read: dropPartialReads drops the
    // read without.
    const auto alsoReadWithAddOn = [&](const ZXing::Barcode &main) {
        const auto extends = [&](const ZXing::Barcode &other) {
            return other.format() == main.format() && other.text().size() > main.text().size() &&
                   other.text().rfind(main.text(), 0) == 0;
        };
        return std::any_of(reads.begin(), reads.end(), [&](const auto &read) { return extends(read.barcode); }) ||
               std::any_of(lineReads.begin(), lineReads.end(), [&](const auto &read) { return extends(read.barcode); });
    };
    // Appends `main` as read again with its add-on (its line's ends `left` and `right` in `gray`'s pixels); false
    // when there is none to read.
    const auto appendedWithAddOn = [&](const ZXing::Barcode &main, cv::Point2f left, cv::Point2f right) {
        if (alsoReadWithAddOn(main)) {
            return false;
        }
        const auto withAddOn = cbridge::readAddOn(gray, main, left, right, zxingOptions, false);
        if (!withAddOn) {
            return false;
        }
        const CB_Quad quad = cbridge::quadOf(withAddOn->first.position(), withAddOn->second, scale);
        barcodes.append(withAddOn->first, 1, &quad);
        return true;
    };
    for (auto read = reads.begin(); read != reads.end();) {
        const auto [left, right] = cbridge::lineEnds(read->barcode.position());
        const auto toGray = static_cast<float>(read->toGray);
        read = appendedWithAddOn(read->barcode, left * toGray, right * toGray) ? reads.erase(read) : std::next(read);
    }
    cbridge::appendMergingSequences(reads, scale, barcodes);
    for (const auto &read : lineReads) {
        if (appendedWithAddOn(read.barcode, read.corners[0], read.corners[1])) {
            continue;
        }
        CB_Quad quad{};
        for (int corner = 0; corner < 4; ++corner) {
            quad.x[corner] = static_cast<float>(read.corners[corner].x * scale);
            quad.y[corner] = static_cast<float>(read.corners[corner].y * scale);
        }
        barcodes.append(read.barcode, 1, &quad);
    }
    if (options->try_any_angle != 0) {
        cbridge::readTurnedLinearCodes(gray, wanted, options->try_inverted != 0, scale, barcodes);
    }
    barcodes.translate(static_cast<float>(area.x), static_cast<float>(area.y));
    const CB_Status status = barcodes.release(out_barcodes, out_count);
    if (status == CB_OK) {
        cbridge::coverBarHeights(image->gray(), *out_barcodes, *out_count);
        cbridge::dropPartialReads(*out_barcodes, *out_count);
        cbridge::dropOutvotedReads(image->gray(), *out_barcodes, *out_count, options->try_inverted != 0);
        if (*out_count == 0) {
            std::free(*out_barcodes);
            *out_barcodes = nullptr;
        }
    }
    return status;
    CB_CATCH
}

extern "C" void CB_Barcodes_free(CB_Barcode *barcodes, size_t count) {
    if (barcodes == nullptr) {
        return;
    }
    for (size_t index = 0; index < count; ++index) {
        cbridge::freeContents(barcodes[index]);
    }
    std::free(barcodes);
}
