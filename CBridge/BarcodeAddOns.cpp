// EAN-2/EAN-5 add-ons beside an EAN-13 or UPC-A that was read without one: where bars follow the symbol, read
// again with the add-on required.
#include "BarcodeResults.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>
#include <optional>

namespace cbridge {

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

}  // namespace

std::pair<cv::Point2f, cv::Point2f> lineEnds(const ZXing::Position &position) {
    return {cv::Point2f(float(position.topLeft().x), float(position.topLeft().y)),
            cv::Point2f(float(position.topRight().x), float(position.topRight().y))};
}

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

}  // namespace cbridge
