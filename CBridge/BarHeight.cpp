// The full height of a linear code's bars. zxing-cpp reads a linear code along a scan line and reports where
// that line (or the few lines that agreed) crossed it: a box a few pixels tall at whichever rows it happened to
// scan, which moves from read to read (measured on a 60 px tall Code 128: top edges at y = 493, 560, 498) and,
// being thin, overlaps nothing. Bars are the same all along their length: the grey profile across the code is
// the same on every row the bars cover and on no row outside them (human-readable digits, the label, the
// background). So from the rows zxing read, the box grows row by row, up and down, for as long as the profile
// there still matches.
#include "Internal.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

// A row belongs to the bars while its profile correlates with the read rows' at least this well. Bars under
// blur, noise and JPEG artefacts stay above 0.8; the digits under an EAN and textured background fall below 0.3.
constexpr double sameBarsCorrelation = 0.6;
// Rows of a poorer match that may interrupt the bars (a scratch, a specular streak, a noise burst).
constexpr int toleratedMisses = 2;
// Bars are at most this many times as tall as the code is long (GS1 symbols are 0.25-0.7; tall Code 39 labels
// reach about 1.5): a bound on the walk, not a guess at the height.
constexpr double maxHeightToLength = 2.0;

using Vec = cv::Point2d;

double bilinear(const cv::Mat &gray, double x, double y) {
    const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
    if (x0 < 0 || y0 < 0 || x0 + 1 >= gray.cols || y0 + 1 >= gray.rows) {
        return -1;  // outside: the caller stops there
    }
    const double fx = x - x0, fy = y - y0;
    const uint8_t *top = gray.ptr<uint8_t>(y0), *bottom = gray.ptr<uint8_t>(y0 + 1);
    return (top[x0] * (1 - fx) + top[x0 + 1] * fx) * (1 - fy) + (bottom[x0] * (1 - fx) + bottom[x0 + 1] * fx) * fy;
}

/// The grey levels along the line from `start` in direction `along` (unit) for `length` pixels, shifted by
/// `offset` pixels along `across`, zero-mean and unit-norm; empty when the line leaves the image or is flat.
std::vector<double> profile(const cv::Mat &gray, Vec start, Vec along, Vec across, double length, double offset) {
    const int samples = std::max(16, static_cast<int>(length));
    std::vector<double> values(samples);
    double sum = 0;
    for (int index = 0; index < samples; ++index) {
        const double t = length * index / (samples - 1);
        const double value =
            bilinear(gray, start.x + along.x * t + across.x * offset, start.y + along.y * t + across.y * offset);
        if (value < 0) {
            return {};
        }
        values[index] = value;
        sum += value;
    }
    const double mean = sum / samples;
    double norm = 0;
    for (auto &value : values) {
        value -= mean;
        norm += value * value;
    }
    // A flat line (below 2 grey levels of deviation) has no bars on it.
    if (norm < 4.0 * samples) {
        return {};
    }
    const double scale = 1 / std::sqrt(norm);
    for (auto &value : values) {
        value *= scale;
    }
    return values;
}

double correlation(const std::vector<double> &a, const std::vector<double> &b) {
    if (a.empty() || b.empty() || a.size() != b.size()) {
        return -1;
    }
    double sum = 0;
    for (size_t index = 0; index < a.size(); ++index) {
        sum += a[index] * b[index];
    }
    return sum;
}

/// The offset across the code, from `from` stepping by `step` (+1 or -1 pixel), of the last row still on the bars.
double walk(const cv::Mat &gray, const std::vector<double> &reference, Vec start, Vec along, Vec across, double length,
            double from, int step, double limit) {
    double last = from;
    int misses = 0;
    for (double offset = from + step; std::abs(offset) <= limit; offset += step) {
        if (correlation(reference, profile(gray, start, along, across, length, offset)) >= sameBarsCorrelation) {
            last = offset;
            misses = 0;
        } else if (++misses > toleratedMisses) {
            break;
        }
    }
    return last;
}

void coverBarHeight(const cv::Mat &gray, CB_Quad &quad) {
    const cbridge::ScanAxis axis(quad);
    const Vec left = axis.left, along = axis.along, across = axis.across;
    const double length = axis.length;
    if (length < 8) {
        return;
    }
    // The rows zxing read, as offsets across the scan line.
    double readTop = 0, readBottom = 0;
    for (int corner = 0; corner < 4; ++corner) {
        const double offset = axis.coordinates({quad.x[corner], quad.y[corner]}).y;
        readTop = std::min(readTop, offset);
        readBottom = std::max(readBottom, offset);
    }
    const auto reference = profile(gray, left, along, across, length, (readTop + readBottom) / 2);
    if (reference.empty()) {
        return;
    }
    const double limit = length * maxHeightToLength;
    const double top = walk(gray, reference, left, along, across, length, readTop, -1, limit);
    const double bottom = walk(gray, reference, left, along, across, length, readBottom, +1, limit);
    const Vec ends[2] = {left, axis.right};
    // topLeft, topRight at the top offset; bottomRight, bottomLeft at the bottom one.
    const int endOfCorner[4] = {0, 1, 1, 0};
    for (int corner = 0; corner < 4; ++corner) {
        const double offset = corner < 2 ? top : bottom;
        const Vec &end = ends[endOfCorner[corner]];
        quad.x[corner] = static_cast<float>(end.x + across.x * offset);
        quad.y[corner] = static_cast<float>(end.y + across.y * offset);
    }
}

}  // namespace

namespace cbridge {

void coverBarHeights(const cv::Mat &gray, CB_Barcode *barcodes, size_t count) {
    CV_Assert(gray.type() == CV_8UC1);
    for (size_t index = 0; index < count; ++index) {
        if ((barcodes[index].format & linearFormats) != 0) {
            coverBarHeight(gray, barcodes[index].quad);
        }
    }
}

}  // namespace cbridge
