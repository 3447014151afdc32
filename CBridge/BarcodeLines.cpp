// Linear codes read along a picture's lines in a region of it: the rows and columns zxing-cpp crosses the whole
// picture with, not the region's own.
#include "BarcodeResults.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace cbridge {

namespace {

// zxing-cpp's 1-D readers, trying harder, scan every max(1, height / 512)-th row of the image they are given and,
// with tryRotate, every max(1, width / 512)-th column (ODReader.cpp's rowStep): a 720p frame's every row and every
// other column, a 1080p frame's every other row and every third column.
constexpr int zxingLinesPerSide = 512;

/// The spacing of those lines across a side of `side` pixels.
int lineStep(int side) { return std::max(1, side / zxingLinesPerSide); }

}  // namespace

bool picturesLinesAreSparser(cv::Size region, cv::Size picture, bool tryRotate) {
    return lineStep(picture.height) > lineStep(region.height) ||
           (tryRotate && lineStep(picture.width) > lineStep(region.width));
}

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

}  // namespace cbridge
