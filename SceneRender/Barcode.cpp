// Barcodes: encoded once by zxing-cpp 3's legacy MultiFormatWriter at one pixel per module, then warped onto
// the canvas per frame.
#include "Internal.hpp"

#include <ZXing/BarcodeFormat.h>
#include <ZXing/BitMatrix.h>
#include <ZXing/MultiFormatWriter.h>

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

using scenerender::fail;

struct SR_Barcode {
    cv::Mat modules;  // CV_8U, 1 = ink; columns x rows modules, no quiet zone
    bool linear = false;
};

namespace {

/// Formats zxing-cpp's MultiFormatWriter can encode; it throws for the others.
constexpr int writableFormats = SR_FORMAT_AZTEC | SR_FORMAT_CODABAR | SR_FORMAT_CODE39 | SR_FORMAT_CODE93 |
                                SR_FORMAT_CODE128 | SR_FORMAT_DATAMATRIX | SR_FORMAT_EAN8 | SR_FORMAT_EAN13 |
                                SR_FORMAT_ITF | SR_FORMAT_PDF417 | SR_FORMAT_QRCODE | SR_FORMAT_UPCA | SR_FORMAT_UPCE;

constexpr int linearFormats = SR_FORMAT_CODABAR | SR_FORMAT_CODE39 | SR_FORMAT_CODE93 | SR_FORMAT_CODE128 |
                              SR_FORMAT_EAN8 | SR_FORMAT_EAN13 | SR_FORMAT_ITF | SR_FORMAT_UPCA | SR_FORMAT_UPCE;

bool isSingleFormat(int format) {
    return format > 0 && format <= SR_FORMAT_MICROQRCODE && (format & (format - 1)) == 0;
}

double distance(const cv::Point2d &a, const cv::Point2d &b) { return std::hypot(a.x - b.x, a.y - b.y); }

/// zxing-cpp 3's format for one SR_Format flag (its formats are no longer bit flags).
ZXing::BarcodeFormat zxingFormat(int format) {
    switch (format) {
    case SR_FORMAT_AZTEC: return ZXing::BarcodeFormat::Aztec;
    case SR_FORMAT_CODABAR: return ZXing::BarcodeFormat::Codabar;
    case SR_FORMAT_CODE39: return ZXing::BarcodeFormat::Code39;
    case SR_FORMAT_CODE93: return ZXing::BarcodeFormat::Code93;
    case SR_FORMAT_CODE128: return ZXing::BarcodeFormat::Code128;
    case SR_FORMAT_DATABAR: return ZXing::BarcodeFormat::DataBar;
    case SR_FORMAT_DATABAR_EXPANDED: return ZXing::BarcodeFormat::DataBarExp;
    case SR_FORMAT_DATAMATRIX: return ZXing::BarcodeFormat::DataMatrix;
    case SR_FORMAT_EAN8: return ZXing::BarcodeFormat::EAN8;
    case SR_FORMAT_EAN13: return ZXing::BarcodeFormat::EAN13;
    case SR_FORMAT_ITF: return ZXing::BarcodeFormat::ITF;
    case SR_FORMAT_MAXICODE: return ZXing::BarcodeFormat::MaxiCode;
    case SR_FORMAT_PDF417: return ZXing::BarcodeFormat::PDF417;
    case SR_FORMAT_QRCODE: return ZXing::BarcodeFormat::QRCode;
    case SR_FORMAT_UPCA: return ZXing::BarcodeFormat::UPCA;
    case SR_FORMAT_UPCE: return ZXing::BarcodeFormat::UPCE;
    case SR_FORMAT_MICROQRCODE: return ZXing::BarcodeFormat::MicroQRCode;
    default: return ZXing::BarcodeFormat::None;
    }
}

}  // namespace

extern "C" SR_Status SR_Barcode_new(SR_Format format, const char *utf8_text, size_t length, SR_Barcode **out_barcode) {
    SR_TRY
    SR_REQUIRE(out_barcode != nullptr && utf8_text != nullptr, "SR_Barcode_new: NULL argument");
    *out_barcode = nullptr;
    SR_REQUIRE(isSingleFormat(format), "SR_Barcode_new: format must be exactly one SR_Format value");
    if ((format & writableFormats) == 0) {
        return fail(SR_UNSUPPORTED, "zxing-cpp's writer cannot encode " + ZXing::ToString(zxingFormat(format)));
    }
    ZXing::BitMatrix matrix;
    const std::string text(utf8_text, length);
    // Width and height 0 with margin 0: the smallest rendering, one pixel per module, no quiet zone.
    // MultiFormatWriter is deprecated in zxing-cpp 3 for CreateBarcode(), whose writer is zint (not built,
    // see scripts/setup.sh) or, without it, this same MultiFormatWriter behind a UTF-8 ECI for non-ASCII text.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    try {
        matrix = ZXing::MultiFormatWriter(zxingFormat(format)).setMargin(0).encode(text, 0, 0);
    } catch (const std::invalid_argument &) {
        // Text the writer's default character set (ISO-8859-1) cannot hold, C1 controls and U+202E among them:
        // the same symbol with a UTF-8 ECI, as CreateBarcode() writes it. Formats without ECI throw again.
        try {
            matrix = ZXing::MultiFormatWriter(zxingFormat(format))
                         .setMargin(0)
                         .setEncoding(ZXing::CharacterSet::UTF8)
                         .encode(text, 0, 0);
        } catch (const std::invalid_argument &error) {
            return fail(SR_INVALID_ARGUMENT, "cannot encode '" + text + "': " + error.what());
        }
    }
#pragma GCC diagnostic pop
    SR_REQUIRE(matrix.width() > 0 && matrix.height() > 0, "SR_Barcode_new: zxing-cpp returned an empty symbol");
    auto barcode = std::make_unique<SR_Barcode>();
    barcode->linear = (format & linearFormats) != 0;
    // zxing's 1-D writers repeat the row to the requested height; one row is the whole information.
    const int rows = barcode->linear ? 1 : matrix.height();
    barcode->modules = cv::Mat(rows, matrix.width(), CV_8U);
    for (int y = 0; y < rows; ++y) {
        auto *row = barcode->modules.ptr<uint8_t>(y);
        for (int x = 0; x < matrix.width(); ++x) {
            row[x] = matrix.get(x, y) ? 1 : 0;
        }
    }
    *out_barcode = barcode.release();
    return SR_OK;
    SR_CATCH
}

extern "C" void SR_Barcode_delete(SR_Barcode *barcode) { delete barcode; }

extern "C" SR_Status SR_Barcode_info(const SR_Barcode *barcode, SR_BarcodeInfo *out_info) {
    SR_TRY
    SR_REQUIRE(barcode != nullptr && out_info != nullptr, "SR_Barcode_info: NULL argument");
    out_info->columns = barcode->modules.cols;
    out_info->rows = barcode->modules.rows;
    out_info->is_linear = barcode->linear ? 1 : 0;
    return SR_OK;
    SR_CATCH
}

extern "C" SR_Status SR_Canvas_draw_barcode(SR_Canvas *canvas, const SR_Barcode *barcode, const SR_Quad *symbol,
                                            const SR_BarcodeStyle *style) {
    SR_TRY
    SR_REQUIRE(canvas != nullptr && barcode != nullptr && symbol != nullptr && style != nullptr,
               "SR_Canvas_draw_barcode: NULL argument");
    SR_REQUIRE(style->quiet_zone >= 0 && style->quiet_zone <= 100,
               "SR_Canvas_draw_barcode: quiet_zone must be in 0...100");
    cv::Mat &pixels = canvas->pixels;
    const int columns = barcode->modules.cols, rows = barcode->modules.rows;

    cv::Point2d corners[4];
    for (int index = 0; index < 4; ++index) {
        SR_REQUIRE(std::isfinite(symbol->x[index]) && std::isfinite(symbol->y[index]),
                   "SR_Canvas_draw_barcode: quad corner is not finite");
        corners[index] = cv::Point2d(symbol->x[index], symbol->y[index]);
    }
    // Continuous module space -> continuous canvas space.
    const cv::Point2f grid[4] = {{0.f, 0.f}, {float(columns), 0.f}, {float(columns), float(rows)}, {0.f, float(rows)}};
    const cv::Point2f target[4] = {corners[0], corners[1], corners[2], corners[3]};
    const cv::Mat homography = cv::getPerspectiveTransform(grid, target);

    // The quiet zone is measured in module widths on every side; for a 1-D code one "row" is the whole
    // bar height, so the vertical margin is converted through the drawn module width and bar height.
    const double moduleWidth = (distance(corners[0], corners[1]) + distance(corners[3], corners[2])) / (2.0 * columns);
    const double rowHeight = (distance(corners[0], corners[3]) + distance(corners[1], corners[2])) / (2.0 * rows);
    SR_REQUIRE(moduleWidth > 0 && rowHeight > 0, "SR_Canvas_draw_barcode: degenerate quad");
    const double marginX = style->quiet_zone;
    const double marginY = barcode->linear ? style->quiet_zone * moduleWidth / rowHeight : style->quiet_zone;
    const std::vector<cv::Point2d> zoneGrid = {{-marginX, -marginY},
                                               {columns + marginX, -marginY},
                                               {columns + marginX, rows + marginY},
                                               {-marginX, rows + marginY}};
    std::vector<cv::Point2d> zone;
    cv::perspectiveTransform(zoneGrid, zone, homography);
    if (style->quiet_zone > 0) {
        // fillConvexPoly takes pixel-centre coordinates; 4 fractional bits keep sub-pixel placement.
        constexpr int shift = 4;
        std::vector<cv::Point> fixedPoint;
        for (const auto &point : zone) {
            fixedPoint.emplace_back(cvRound((point.x - 0.5) * (1 << shift)), cvRound((point.y - 0.5) * (1 << shift)));
        }
        cv::fillConvexPoly(pixels, fixedPoint, scenerender::scalar(style->paper), cv::LINE_AA, shift);
    }

    // Only the bounding box of the symbol is warped: a whole-canvas warp per item per frame is wasteful.
    double minX = corners[0].x, maxX = corners[0].x, minY = corners[0].y, maxY = corners[0].y;
    for (const auto &corner : corners) {
        minX = std::min(minX, corner.x), maxX = std::max(maxX, corner.x);
        minY = std::min(minY, corner.y), maxY = std::max(maxY, corner.y);
    }
    const cv::Rect bounds(cv::Point(int(std::floor(minX)) - 1, int(std::floor(minY)) - 1),
                          cv::Point(int(std::ceil(maxX)) + 1, int(std::ceil(maxY)) + 1));
    const cv::Rect area = bounds & cv::Rect(0, 0, pixels.cols, pixels.rows);
    if (area.empty()) {
        return SR_OK;
    }
    cv::Mat image(barcode->modules.size(), CV_8UC3, scenerender::scalar(style->paper));
    image.setTo(scenerender::scalar(style->ink), barcode->modules);

    // warpPerspective maps pixel indices (centres at +0.5) of the module image to pixel indices of the
    // destination ROI; nearest-neighbour rounds, so a canvas pixel takes the module its centre lies in.
    cv::Mat toModuleCentre = (cv::Mat_<double>(3, 3) << 1, 0, 0.5, 0, 1, 0.5, 0, 0, 1);
    cv::Mat toArea = (cv::Mat_<double>(3, 3) << 1, 0, -area.x - 0.5, 0, 1, -area.y - 0.5, 0, 0, 1);
    const cv::Mat transform = toArea * homography * toModuleCentre;
    cv::Mat destination = pixels(area);
    // BORDER_TRANSPARENT leaves pixels outside the symbol untouched, so no mask is needed.
    cv::warpPerspective(image, destination, transform, area.size(), cv::INTER_NEAREST, cv::BORDER_TRANSPARENT);
    return SR_OK;
    SR_CATCH
}
