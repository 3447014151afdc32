// Finding a known picture again in a later frame: how the change-gated barcode reader follows a code that
// moved without reading it again.
#include "Internal.hpp"

#include <opencv2/core/hal/intrin.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace {

/// Patches larger than this (either side) are looked for at half size first: a quarter of the work, and
/// codes are still far larger than a few pixels there.
constexpr int halvingSide = 64;
/// The thinnest a patch may become by halving (a linear code's patch can be a few rows tall).
constexpr int minHalfSide = 4;
/// cv::matchTemplate correlates through Fourier transforms of the haystack: its cost grows with the haystack's area
/// (a log factor more), whatever the number of positions. Direct sums (`directScores`) cost a multiply-add for
/// each needle pixel at each position. Measured on a 720p frame's codes (needles of 30 x 40 to 200 x 400 pixels,
/// search radii 3 to 20 pixels), the direct sums are the faster while positions x needle pixels stays under about
/// 20 to 30 times haystack pixels x log2(haystack pixels): a followed code's usual half-size search (radius 5 to 8)
/// took 0.06-0.12 ms against 0.13-0.24 ms through cv::matchTemplate.
constexpr double directCostRatio = 20;

bool directIsCheaper(const cv::Mat &haystack, const cv::Mat &needle, int positions) {
    const double haystackPixels = static_cast<double>(haystack.total());
    return static_cast<double>(positions) * static_cast<double>(needle.total()) <=
           directCostRatio * haystackPixels * std::log2(std::max(haystackPixels, 2.0));
}

/// Pixels around the half-size match searched again at full size.
constexpr int refinement = 2;

/// The sum of `a[i] * b[i]` over `count` pixels, 16 at a time where OpenCV has vector instructions. Exact: a row of
/// at most 32768 pixels (CB_Image's limit) sums to under 2^32.
uint32_t dotProduct(const uint8_t *a, const uint8_t *b, int count) {
    int x = 0;
    uint32_t total = 0;
#if CV_SIMD128
    cv::v_uint32x4 sums = cv::v_setzero_u32();
    for (; x + 16 <= count; x += 16) {
        sums += cv::v_dotprod_expand_fast(cv::v_load(a + x), cv::v_load(b + x));
    }
    total = cv::v_reduce_sum(sums);
#endif
    for (; x < count; ++x) {
        total += static_cast<uint32_t>(a[x]) * b[x];
    }
    return total;
}

/// The offset of a peak from the middle sample, by a parabola through three scores (-0.5...0.5).
double parabolicPeak(double before, double at, double after) {
    const double curvature = before - 2 * at + after;
    if (curvature >= 0) {
        return 0;
    }
    return std::clamp(0.5 * (before - after) / curvature, -0.5, 0.5);
}

}  // namespace

extern "C" CB_Status CB_Image_copy_patch(const CB_Image *image, CB_Rect rect, CB_Image **out_patch) {
    CB_TRY
    CB_REQUIRE(image != nullptr && out_patch != nullptr, "CB_Image_copy_patch: NULL argument");
    *out_patch = nullptr;
    const cv::Rect area =
        cv::Rect(rect.x, rect.y, rect.width, rect.height) & cv::Rect(0, 0, image->width(), image->height());
    CB_REQUIRE(!area.empty(), "CB_Image_copy_patch: the rectangle is outside the image");
    *out_patch = CB_Image::fromGray(image->gray()(area).clone());
    return CB_OK;
    CB_CATCH
}

namespace {

/// A patch's sum and sum of squares, exact: a row's sums fit 32 bits, a patch's need 64.
struct PixelMoments {
    uint64_t sum = 0;
    uint64_t squares = 0;
};

PixelMoments momentsOf(const cv::Mat &patch) {
    PixelMoments moments;
    for (int row = 0; row < patch.rows; ++row) {
        const uint8_t *pixels = patch.ptr<uint8_t>(row);
        uint32_t sum = 0;
        for (int x = 0; x < patch.cols; ++x) {
            sum += pixels[x];
        }
        moments.sum += sum;
        moments.squares += dotProduct(pixels, pixels, patch.cols);
    }
    return moments;
}

/// Per haystack row, its sums and sums of squares over `width` pixels at each of the `across` horizontal positions
/// (the first summed, the others slid along), row after row: the first half of each window's sums.
struct RowWindows {
    int across;
    std::vector<uint64_t> sums;
    std::vector<uint64_t> squares;
};

RowWindows rowWindows(const cv::Mat &haystack, int width) {
    const int across = haystack.cols - width + 1;
    RowWindows windows{across, std::vector<uint64_t>(static_cast<size_t>(haystack.rows) * across), {}};
    windows.squares.resize(windows.sums.size());
    for (int row = 0; row < haystack.rows; ++row) {
        const uint8_t *pixels = haystack.ptr<uint8_t>(row);
        uint64_t sum = 0;
        for (int x = 0; x < width; ++x) {
            sum += pixels[x];
        }
        uint64_t squares = dotProduct(pixels, pixels, width);
        for (int x = 0; x < across; ++x) {
            if (x > 0) {
                const uint64_t leaving = pixels[x - 1], entering = pixels[x + width - 1];
                sum = sum + entering - leaving;
                squares = squares + entering * entering - leaving * leaving;
            }
            windows.sums[static_cast<size_t>(row) * across + x] = sum;
            windows.squares[static_cast<size_t>(row) * across + x] = squares;
        }
    }
    return windows;
}

/// Normalised cross-correlation (as TM_CCOEFF_NORMED) of `needle` at every corner position in `haystack`,
/// computed directly, where that is cheaper than cv::matchTemplate (`directIsCheaper`): its Fourier transform of the
/// whole patch costs 0.5 ms at 160 x 160 pixels, whatever the number of positions. The sums are exact: each window's
/// sum and sum of squares slid along the haystack's rows and down its columns, its products with the needle row by row
/// (`dotProduct`); the same scores as cv::sum and Mat::dot on each window. A followed code's whole search
/// (CB_Image_locate_patch, 25 corner positions, one thread) takes 0.04-0.05 ms for patches of 126 to 310 px on a
/// side; with the window sums from integral images of the haystack in doubles it took 0.15-0.30 ms.
/// -1 where the window is flat; empty when the needle is.
cv::Mat directScores(const cv::Mat &haystack, const cv::Mat &needle) {
    CV_Assert(haystack.type() == CV_8UC1 && needle.type() == CV_8UC1);
    const double count = static_cast<double>(needle.total());
    const PixelMoments needleMoments = momentsOf(needle);
    const uint64_t needleSum = needleMoments.sum;
    const double needleVariance = static_cast<double>(needleMoments.squares) -
                                  static_cast<double>(needleSum) * static_cast<double>(needleSum) / count;
    if (needleVariance <= 0) {
        return {};
    }
    // Each window's sum and sum of squares, exact: its rows' sums over the needle's width (rowWindows), summed over
    // the needle's height at each vertical position (slid down likewise): only the windows searched, not the
    // haystack's every pixel.
    const RowWindows windows = rowWindows(haystack, needle.cols);
    const int across = windows.across, down = haystack.rows - needle.rows + 1;
    const std::vector<uint64_t> &rowSums = windows.sums, &rowSquares = windows.squares;
    cv::Mat scores(down, across, CV_32F);
    for (int x = 0; x < across; ++x) {
        uint64_t sum = 0, squares = 0;
        for (int row = 0; row < needle.rows; ++row) {
            sum += rowSums[static_cast<size_t>(row) * across + x];
            squares += rowSquares[static_cast<size_t>(row) * across + x];
        }
        for (int y = 0; y < down; ++y) {
            if (y > 0) {
                const size_t leaving = static_cast<size_t>(y - 1) * across + x;
                const size_t entering = static_cast<size_t>(y + needle.rows - 1) * across + x;
                sum = sum + rowSums[entering] - rowSums[leaving];
                squares = squares + rowSquares[entering] - rowSquares[leaving];
            }
            uint64_t products = 0;
            for (int row = 0; row < needle.rows; ++row) {
                products += dotProduct(haystack.ptr<uint8_t>(y + row) + x, needle.ptr<uint8_t>(row), needle.cols);
            }
            const double windowSum = static_cast<double>(sum);
            const double windowVariance = static_cast<double>(squares) - windowSum * windowSum / count;
            const double covariance =
                static_cast<double>(products) - windowSum * static_cast<double>(needleSum) / count;
            const double scale = std::sqrt(std::max(windowVariance, 0.0) * std::max(needleVariance, 0.0));
            scores.at<float>(y, x) = scale > 0 ? static_cast<float>(covariance / scale) : -1.0f;
        }
    }
    return scores;
}

/// The best match of `needle` in `haystack` (normalised cross-correlation), refined to a fraction of a
/// pixel; false when the correlation is undefined (a flat patch gives NaN or inf).
bool bestMatch(const cv::Mat &haystack, const cv::Mat &needle, double &x, double &y, double &score) {
    const int positions = (haystack.cols - needle.cols + 1) * (haystack.rows - needle.rows + 1);
    cv::Mat scores;
    if (directIsCheaper(haystack, needle, positions)) {
        scores = directScores(haystack, needle);
        if (scores.empty()) {
            return false;
        }
    } else {
        cv::matchTemplate(haystack, needle, scores, cv::TM_CCOEFF_NORMED);
    }
    cv::Point at;
    cv::minMaxLoc(scores, nullptr, &score, nullptr, &at);
    if (!std::isfinite(score)) {
        return false;
    }
    auto at_ = [&](int column, int row) { return static_cast<double>(scores.at<float>(row, column)); };
    x = at.x;
    y = at.y;
    if (at.x > 0 && at.x + 1 < scores.cols) {
        x += parabolicPeak(at_(at.x - 1, at.y), score, at_(at.x + 1, at.y));
    }
    if (at.y > 0 && at.y + 1 < scores.rows) {
        y += parabolicPeak(at_(at.x, at.y - 1), score, at_(at.x, at.y + 1));
    }
    return true;
}

}  // namespace

extern "C" CB_Status CB_Image_locate_patch(const CB_Image *patch, const CB_Image *image, CB_Rect search, float *out_x,
                                           float *out_y, double *out_score) {
    CB_TRY
    CB_REQUIRE(patch != nullptr && image != nullptr && out_x != nullptr && out_y != nullptr && out_score != nullptr,
               "CB_Image_locate_patch: NULL argument");
    *out_score = -1;
    const cv::Mat &needle = patch->gray();
    const cv::Rect bounds(0, 0, image->width(), image->height());
    // The pixels a patch with its corner anywhere in `corners` covers.
    auto covered = [&](const cv::Rect &corners) {
        return cv::Rect(corners.x, corners.y, corners.width + needle.cols - 1, corners.height + needle.rows - 1) &
               bounds;
    };
    cv::Rect corners(search.x, search.y, std::max(search.width, 1), std::max(search.height, 1));
    cv::Rect area = covered(corners);
    if (area.width < needle.cols || area.height < needle.rows) {
        return CB_OK;
    }
    double x = 0, y = 0, score = -1;
    if (std::max(needle.cols, needle.rows) > halvingSide && std::min(needle.cols, needle.rows) >= 2 * minHalfSide &&
        std::min(area.width, area.height) >= 2 * refinement) {
        // Coarse at half size, then exact at full size within a pixel or two of it: at half size alone, a
        // shift by an odd number of pixels samples the patch differently and scores only about 0.88.
        // Even sides: INTER_AREA at exactly half is a 2 x 2 mean (its vectorised path); at 73 of 147 pixels it
        // weighs fractions of pixels, 20x slower.
        const auto even = [](const cv::Mat &image) { return image(cv::Rect(0, 0, image.cols & ~1, image.rows & ~1)); };
        cv::Mat smallHaystack, smallNeedle;
        cv::resize(even(image->gray()(area)), smallHaystack, cv::Size(area.width / 2, area.height / 2), 0, 0,
                   cv::INTER_AREA);
        cv::resize(even(needle), smallNeedle, cv::Size(needle.cols / 2, needle.rows / 2), 0, 0, cv::INTER_AREA);
        if (smallHaystack.cols >= smallNeedle.cols && smallHaystack.rows >= smallNeedle.rows &&
            bestMatch(smallHaystack, smallNeedle, x, y, score)) {
            const int coarseX = area.x + static_cast<int>(std::lround(x * 2));
            const int coarseY = area.y + static_cast<int>(std::lround(y * 2));
            corners =
                cv::Rect(coarseX - refinement, coarseY - refinement, 2 * refinement + 1, 2 * refinement + 1) & corners;
            area = covered(corners);
            if (corners.empty() || area.width < needle.cols || area.height < needle.rows) {
                return CB_OK;
            }
        }
    }
    if (!bestMatch(image->gray()(area), needle, x, y, score)) {
        return CB_OK;
    }
    *out_x = static_cast<float>(area.x + x);
    *out_y = static_cast<float>(area.y + y);
    *out_score = score;
    return CB_OK;
    CB_CATCH
}
