// Where linear codes may be in a picture, whatever their angle (TurnedLinear.cpp cuts and reads them). Bars have a
// physical signature independent of the angle: within a patch of the code, every gradient points the same way
// (across the bars, forwards or backwards), strongly. The structure tensor of the gradients, averaged over small
// cells, measures this: its coherence (how much of the gradient energy lies along one direction) is near 1 on bars
// and low on text, texture and noise. Cells of strong, coherent gradient that agree in direction are grouped into
// candidates.
#include "TurnedLinear.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <vector>

namespace cbridge::turned {

namespace {

// The gradients are taken at most this large (long side, integer reduction: INTER_AREA at a non-integer factor
// is 5x slower): modules of 2 pixels at 1080p still leave bars at 960 px.
constexpr int analysisLongSide = 960;
// A cell is on bars when this share of its gradient energy lies along one direction (bars: 0.9 and above; printed
// text 0.3-0.6; noise near 0) ...
constexpr double minCoherence = 0.7;
// ... and its gradients are strong: an RMS Sobel response of this many units (a 3x3 Sobel gives 4x the grey step
// per pixel: about 5 grey levels of contrast between bar and space, well below any readable print).
constexpr double minGradientRMS = 20;
// Neighbouring cells belong to one code when their directions differ by less than this.
constexpr double sameDirectionDegrees = 12;
constexpr double sameDirection = sameDirectionDegrees * CV_PI / 180;  // in radians
// A candidate smaller than this many cells is too small to hold a readable code (an EAN-13 at 1 pixel a module
// covers 12 x 3 cells).
constexpr int minCells = 6;
// Bars are at most this many times as tall as the code is long (as in BarHeight.cpp): a longer coherent run is
// one edge, or the side of a stripe, not a code. Its length must also span a few cells.
constexpr double maxHeightToLength = 2.0;
constexpr int minLengthCells = 3;
// Two candidates in one direction, side by side along it with a gap of at most this share of the first's length,
// are one code: an EAN-2/EAN-5 add-on beside its code (7-12 modules apart, about 10 % of an EAN-13), a code
// split by a glare spot.
constexpr double joinGapToLength = 0.35;
// Candidates read per image, largest first: bounds the cost on a frame full of stripes.
constexpr size_t maxCandidates = 8;

double angleDifference(double a, double b) {  // directions modulo 180 degrees, in radians
    double difference = std::fmod(std::abs(a - b), CV_PI);
    return std::min(difference, CV_PI - difference);
}

struct CellTensor {
    cv::Mat xx, yy, xy;  // per cell, CV_32F
    // Whether the picture goes on beyond the cells' left, top, right and bottom edges: the pixels read are a region
    // of it, inside it on that side.
    bool beyondLeft = false, beyondTop = false, beyondRight = false, beyondBottom = false;
};

/// The candidate of a set of cells: its direction from their summed tensor, its extent from their corners.
Candidate candidateOf(const std::vector<cv::Point> &cells, const CellTensor &tensor, double toRead) {
    double xx = 0, yy = 0, xy = 0;
    for (const auto &cell : cells) {
        xx += tensor.xx.at<float>(cell);
        yy += tensor.yy.at<float>(cell);
        xy += tensor.xy.at<float>(cell);
    }
    const double angle = 0.5 * std::atan2(2 * xy, xx - yy);  // of the gradient: across the bars
    const cv::Point2d across(std::cos(angle), std::sin(angle)), along(-across.y, across.x);
    double uMin = 1e9, uMax = -1e9, vMin = 1e9, vMax = -1e9;
    for (const auto &cell : cells) {
        for (int corner = 0; corner < 4; ++corner) {
            const cv::Point2d point((cell.x + (corner & 1)) * cellSize, (cell.y + (corner >> 1)) * cellSize);
            const double u = point.dot(across), v = point.dot(along);
            uMin = std::min(uMin, u), uMax = std::max(uMax, u), vMin = std::min(vMin, v), vMax = std::max(vMax, v);
        }
    }
    // An end of the candidate is where its cells' corners reach furthest along `across`: a cell there (its centre
    // within a cell of it) on a cut edge of the grid is cut off by it.
    const int columns = tensor.xx.cols, rows = tensor.xx.rows;
    bool endsAtCut = false;
    for (const auto &cell : cells) {
        const bool onCut = (tensor.beyondLeft && cell.x == 0) || (tensor.beyondTop && cell.y == 0) ||
                           (tensor.beyondRight && cell.x == columns - 1) || (tensor.beyondBottom && cell.y == rows - 1);
        const double u = (cv::Point2d(cell) + cv::Point2d(0.5, 0.5)).dot(across) * cellSize;
        endsAtCut |= onCut && (u - uMin < 1.5 * cellSize || uMax - u < 1.5 * cellSize);
    }
    Candidate candidate;
    candidate.endsAtCut = endsAtCut;
    candidate.across = across;
    candidate.centre = (across * ((uMin + uMax) / 2) + along * ((vMin + vMax) / 2)) * toRead;
    candidate.length = (uMax - uMin) * toRead;
    candidate.height = (vMax - vMin) * toRead;
    candidate.cells = static_cast<int>(cells.size());
    return candidate;
}

/// Offset `index` on a side of `size` pixels, mirrored at its ends without repeating them (cv::BORDER_REFLECT_101,
/// OpenCV filters' default): -1 is 1, size is size - 2.
int reflect101(int index, int size) {
    if (size == 1) {
        return 0;
    }
    return index < 0 ? -index : index >= size ? 2 * size - 2 - index : index;
}

/// Rows of `small` (a part of an image, or the whole) `width` pixels wide, each with its neighbour on both sides,
/// read from the whole image, mirrored at that image's edges as BORDER_REFLECT_101: what a 3x3 Sobel sees.
class PaddedRows {
public:
    PaddedRows(const cv::Mat &small, int width) : small_(small), width_(width) { small.locateROI(whole_, offset_); }

    /// Row `y` of `small` (-1 and its height included) into `padded` (width + 2 long): padded[1 + x] is column x.
    void load(int y, std::vector<int16_t> &padded) const {
        const int wholeY = reflect101(offset_.y + y, whole_.height);
        const uint8_t *pixels =
            small_.ptr<uint8_t>(0) + static_cast<ptrdiff_t>(wholeY - offset_.y) * static_cast<ptrdiff_t>(small_.step);
        for (int x = 0; x < width_; ++x) {
            padded[1 + x] = pixels[x];
        }
        const uint8_t *origin = pixels - offset_.x;  // column 0 of the whole image
        padded[0] = origin[reflect101(offset_.x - 1, whole_.width)];
        padded[1 + width_] = origin[reflect101(offset_.x + width_, whole_.width)];
    }

private:
    const cv::Mat &small_;
    const int width_;
    cv::Size whole_;
    cv::Point offset_;
};

/// Adds the squares and product of the 3x3 Sobel gradients of the middle row `m` (between `a` above and `b` below,
/// each padded by a pixel on both sides) to `xx`, `yy` and `xy`, column by column.
void addGradientProducts(const int16_t *a, const int16_t *m, const int16_t *b, int width, int32_t *xx, int32_t *yy,
                         int32_t *xy) {
    for (int x = 0; x < width; ++x) {
        // 16 bits, as the compiler vectorises best (at 32, it lost to cv::Sobel on a whole frame)
        const auto dx = static_cast<int16_t>((a[x + 2] - a[x]) + 2 * (m[x + 2] - m[x]) + (b[x + 2] - b[x]));
        const auto dy = static_cast<int16_t>((b[x] + 2 * b[x + 1] + b[x + 2]) - (a[x] + 2 * a[x + 1] + a[x + 2]));
        xx[x] += int32_t{dx} * dx;
        yy[x] += int32_t{dy} * dy;
        xy[x] += int32_t{dx} * dy;
    }
}

/// The structure tensor of `small`'s gradients, averaged over `columns` x `rows` cells of cellSize pixels.
CellTensor cellTensor(const cv::Mat &small, int columns, int rows) {
    // A 3x3 Sobel's gradients (as cv::Sobel to 16 bits: the pixels beyond the cells are `small`'s, or those of the
    // image it is a part of, mirrored at that image's edges as BORDER_REFLECT_101), each squared and multiplied and
    // summed over its cell in the same pass, without the two gradient images: a 3x3 Sobel of 8-bit pixels is at
    // most 4 * 255 either way, and its products' sums over a cell (at most 64 * 1020^2) fit 32 bits exactly, so
    // the sums are cv::Sobel's to the bit (the same floats on 3,000 random regions of random and blurred images,
    // at their edges and inside). cv::Sobel's own set-up (a filter engine each call) cost more than its arithmetic on
    // the small regions a video's change-gated reads ask for (1-minute 720p barcodes-only scan: ~12,000 calls, about
    // 150 ms of CPU in perf samples). One thread: a 48 px square 16 -> 3 us, 100 px 28 -> 9 us, 640 x 360 291 -> 207
    // us.
    const int width = columns * cellSize;
    const PaddedRows rowsOf(small, width);
    // Each of the three rows with its neighbours on both sides: padded[1 + x] is column x.
    std::vector<int16_t> above(width + 2), middle(width + 2), below(width + 2);
    const auto load = [&](int y, std::vector<int16_t> &padded) { rowsOf.load(y, padded); };
    CellTensor tensor{cv::Mat(rows, columns, CV_32F), cv::Mat(rows, columns, CV_32F), cv::Mat(rows, columns, CV_32F)};
    std::vector<int32_t> xx(width), yy(width), xy(width);  // per pixel column, over one row of cells
    constexpr float perPixel = 1.0f / (cellSize * cellSize);
    load(-1, above);
    load(0, middle);
    for (int row = 0; row < rows; ++row) {
        std::fill(xx.begin(), xx.end(), 0);
        std::fill(yy.begin(), yy.end(), 0);
        std::fill(xy.begin(), xy.end(), 0);
        for (int y = row * cellSize; y < (row + 1) * cellSize; ++y) {
            load(y + 1, below);
            addGradientProducts(above.data(), middle.data(), below.data(), width, xx.data(), yy.data(), xy.data());
            std::swap(above, middle);
            std::swap(middle, below);
        }
        for (int column = 0; column < columns; ++column) {
            int32_t sumXX = 0, sumYY = 0, sumXY = 0;
            for (int x = column * cellSize; x < (column + 1) * cellSize; ++x) {
                sumXX += xx[x], sumYY += yy[x], sumXY += xy[x];
            }
            tensor.xx.at<float>(row, column) = float(sumXX) * perPixel;
            tensor.yy.at<float>(row, column) = float(sumYY) * perPixel;
            tensor.xy.at<float>(row, column) = float(sumXY) * perPixel;
        }
    }
    return tensor;
}

/// Per cell, whether it is on bars (1: strong gradients, most of their energy along one direction) and the
/// gradient's direction (across the bars, in radians). `angle` is set only where the gradient is strong; elsewhere
/// `onBars` is 0, and it is never read.
struct BarCells {
    cv::Mat angle;   // CV_32F
    cv::Mat onBars;  // CV_8U, 0 or 1
};

BarCells barCells(const CellTensor &tensor) {
    const int rows = tensor.xx.rows, columns = tensor.xx.cols;
    BarCells cells{cv::Mat(rows, columns, CV_32F), cv::Mat(rows, columns, CV_8U, cv::Scalar(0))};
    for (int row = 0; row < rows; ++row) {
        for (int column = 0; column < columns; ++column) {
            const double xx = tensor.xx.at<float>(row, column), yy = tensor.yy.at<float>(row, column),
                         xy = tensor.xy.at<float>(row, column);
            const double energy = xx + yy;
            if (energy < minGradientRMS * minGradientRMS) {
                continue;
            }
            const double coherence = std::sqrt((xx - yy) * (xx - yy) + 4 * xy * xy) / energy;
            cells.angle.at<float>(row, column) = static_cast<float>(0.5 * std::atan2(2 * xy, xx - yy));
            cells.onBars.at<uint8_t>(row, column) = coherence >= minCoherence ? 1 : 0;
        }
    }
    return cells;
}

/// Groups of neighbouring bar cells (8-connected) whose directions agree step by step, in the order of their first
/// cell (row by row); single cells are left out.
std::vector<std::vector<cv::Point>> groupBarCells(const BarCells &cells) {
    const int rows = cells.onBars.rows, columns = cells.onBars.cols;
    const cv::Mat &angle = cells.angle, &onBars = cells.onBars;
    std::vector<std::vector<cv::Point>> groups;
    cv::Mat visited(rows, columns, CV_8U, cv::Scalar(0));
    for (int row = 0; row < rows; ++row) {
        for (int column = 0; column < columns; ++column) {
            if (onBars.at<uint8_t>(row, column) == 0 || visited.at<uint8_t>(row, column) != 0) {
                continue;
            }
            std::vector<cv::Point> group;
            std::deque<cv::Point> pending{cv::Point(column, row)};
            visited.at<uint8_t>(row, column) = 1;
            while (!pending.empty()) {
                const cv::Point cell = pending.front();
                pending.pop_front();
                group.push_back(cell);
                for (int dy = -1; dy <= 1; ++dy) {
                    for (int dx = -1; dx <= 1; ++dx) {
                        const cv::Point next(cell.x + dx, cell.y + dy);
                        if (next.x < 0 || next.y < 0 || next.x >= columns || next.y >= rows ||
                            onBars.at<uint8_t>(next) == 0 || visited.at<uint8_t>(next) != 0 ||
                            angleDifference(angle.at<float>(cell), angle.at<float>(next)) > sameDirection) {
                            continue;
                        }
                        visited.at<uint8_t>(next) = 1;
                        pending.push_back(next);
                    }
                }
            }
            if (static_cast<int>(group.size()) >= 2) {
                groups.push_back(std::move(group));
            }
        }
    }
    return groups;
}

/// The candidates of `groups`, largest group first, where two groups side by side along one direction (an add-on
/// and its code, a code split by a glare spot) are one candidate: the first of them, grown.
std::vector<Candidate> joinSideBySide(std::vector<std::vector<cv::Point>> groups, const CellTensor &tensor,
                                      int reduction) {
    std::sort(groups.begin(), groups.end(), [](const auto &a, const auto &b) { return a.size() > b.size(); });
    std::vector<Candidate> candidates;
    for (const auto &group : groups) {
        candidates.push_back(candidateOf(group, tensor, reduction));
    }
    std::vector<bool> joined(groups.size(), false);
    for (size_t first = 0; first < groups.size(); ++first) {
        if (joined[first]) {
            continue;
        }
        for (size_t second = first + 1; second < groups.size(); ++second) {
            if (joined[second]) {
                continue;
            }
            const Candidate &a = candidates[first], &b = candidates[second];
            const double aAngle = std::atan2(a.across.y, a.across.x), bAngle = std::atan2(b.across.y, b.across.x);
            if (angleDifference(aAngle, bAngle) > sameDirection) {
                continue;
            }
            const cv::Point2d offset = b.centre - a.centre, along(-a.across.y, a.across.x);
            const double gap = std::abs(offset.dot(a.across)) - (a.length + b.length) / 2;
            if (std::abs(offset.dot(along)) < a.height / 2 && gap < joinGapToLength * a.length) {
                groups[first].insert(groups[first].end(), groups[second].begin(), groups[second].end());
                candidates[first] = candidateOf(groups[first], tensor, reduction);
                joined[second] = true;
            }
        }
    }
    std::vector<Candidate> unjoined;
    for (size_t index = 0; index < candidates.size(); ++index) {
        if (!joined[index]) {
            unjoined.push_back(candidates[index]);
        }
    }
    return unjoined;
}

/// Of `candidates`, those large and long enough to hold a code, not too tall for one and not cut off at an end by a
/// region's edge, most cells first; at most maxCandidates. A change-gated read of a video frame reads the regions
/// that changed, and a code moving across one's edge is cut there in every frame it moves: on the 1-minute 720p
/// bench video, passing over those took the search's CPU in region reads from 0.37-0.41 s to 0.22-0.27 s, and its
/// event log stayed the same.
std::vector<Candidate> codeShaped(const std::vector<Candidate> &candidates, int reduction) {
    std::vector<Candidate> kept;
    for (const Candidate &candidate : candidates) {
        if (candidate.endsAtCut || candidate.cells < minCells ||
            candidate.length < minLengthCells * cellSize * reduction ||
            candidate.height > maxHeightToLength * candidate.length) {
            continue;
        }
        kept.push_back(candidate);
    }
    std::sort(kept.begin(), kept.end(), [](const auto &a, const auto &b) { return a.cells > b.cells; });
    if (kept.size() > maxCandidates) {
        kept.resize(maxCandidates);
    }
    return kept;
}

}  // namespace

std::vector<Candidate> locate(const cv::Mat &gray) {
    const int reduction = std::max(1, (std::max(gray.cols, gray.rows) + analysisLongSide - 1) / analysisLongSide);
    // Too thin to hold two cells either way once reduced (a 1 x 100000 image): no code to turn, and cv::resize
    // would assert on a side of 0.
    if (gray.cols / reduction < 2 * cellSize || gray.rows / reduction < 2 * cellSize) {
        return {};
    }
    cv::Mat small = gray;
    if (reduction > 1) {
        cv::resize(gray, small, cv::Size(gray.cols / reduction, gray.rows / reduction), 0, 0, cv::INTER_AREA);
    }
    const int columns = small.cols / cellSize, rows = small.rows / cellSize;
    if (columns < 2 || rows < 2) {
        return {};
    }
    CellTensor tensor = cellTensor(small, columns, rows);
    // `gray` may be a region of a frame (a change-gated read's): where the frame goes on, so may a code.
    cv::Size whole;
    cv::Point offset;
    gray.locateROI(whole, offset);
    tensor.beyondLeft = offset.x > 0;
    tensor.beyondTop = offset.y > 0;
    tensor.beyondRight = offset.x + gray.cols < whole.width;
    tensor.beyondBottom = offset.y + gray.rows < whole.height;
    return codeShaped(joinSideBySide(groupBarCells(barCells(tensor)), tensor, reduction), reduction);
}

}  // namespace cbridge::turned
