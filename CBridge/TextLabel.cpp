// The label a line of text is printed on. A line's crop reaches past its label's edge into whatever surrounds
// it (the locator's blob joins the glyphs to the edge next to them, then a margin is added), and Tesseract reads
// that edge, a printed frame, or the background beyond as characters: "| platform ticket boarding",
// ") WAREHOUSE CARD |". The label is the crop's dominant grey level; a column or row where hardly anything is of
// that level (under a fifth: an edge, a frame line, a textured background) is not on the label, while a column
// through glyphs always keeps the label between and around its strokes (the crop has a margin above and below
// the glyphs). So the crop shrinks, from its middle outwards, to the columns and rows that are on the label.
// The same reading splits a candidate line that the locator joined across two labels side by side.
#include "Internal.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <utility>
#include <vector>

namespace {

// Grey levels within this of the label's count as the label: video noise and JPEG ringing on a flat label stay
// within it, ink and most of a textured background do not.
constexpr int labelTolerance = 20;
// A column or row with less of the label than this is off the label.
constexpr double onLabelShare = 0.2;
// A row of the label's margin above or below the glyphs is at least this much label (0.9 measured).
constexpr double clearLabelShare = 0.5;
// Below this share of label-coloured pixels in the crop's middle, there is no uniform label behind the text
// (scene text on a picture): the crop is left as it is. Bold capitals in a crop barely taller than them cover
// more than half of it (0.45 of label measured behind "WAREHOUSE CARD").
constexpr double labelPresentShare = 0.35;

/// The most frequent grey level of `region`, its histogram smoothed over 5 levels.
int dominantLevel(const cv::Mat &region) {
    std::array<int, 256> histogram{};
    for (int y = 0; y < region.rows; ++y) {
        const uint8_t *row = region.ptr<uint8_t>(y);
        for (int x = 0; x < region.cols; ++x) {
            ++histogram[row[x]];
        }
    }
    int best = 0, bestCount = -1;
    for (int level = 0; level < 256; ++level) {
        int count = 0;
        for (int near = std::max(0, level - 2); near <= std::min(255, level + 2); ++near) {
            count += histogram[near];
        }
        if (count > bestCount) {
            best = level;
            bestCount = count;
        }
    }
    return best;
}

bool isLabel(uint8_t pixel, int level) { return std::abs(pixel - level) <= labelTolerance; }

/// Whether each column of `gray` is on the label whose level is `level` in the middle column. The level is
/// followed from the middle outwards, column by column, as it drifts: paper lit unevenly (a receipt photographed
/// under a lamp) shades smoothly across a line, while a label's edge changes it at once.
struct LabelColumns {
    std::vector<bool> on;
    /// The label's level as followed to each column.
    std::vector<int> level;
};

LabelColumns columnsOnLabel(const cv::Mat &gray, int level) {
    std::vector<bool> on(gray.cols, false);
    std::vector<int> levels(gray.cols, level);
    for (const int step : {-1, +1}) {
        double followed = level;
        for (int x = gray.cols / 2; x >= 0 && x < gray.cols; x += step) {
            int count = 0, sum = 0;
            for (int y = 0; y < gray.rows; ++y) {
                const uint8_t pixel = gray.at<uint8_t>(y, x);
                if (isLabel(pixel, static_cast<int>(followed))) {
                    ++count;
                    sum += pixel;
                }
            }
            levels[x] = static_cast<int>(followed);
            on[x] = count >= onLabelShare * gray.rows;
            if (on[x]) {
                followed = 0.8 * followed + 0.2 * sum / count;
            }
        }
    }
    return {on, levels};
}

}  // namespace

namespace cbridge {

std::vector<cv::Range> labelPieces(const cv::Mat &gray, int textHeight) {
    const std::vector<cv::Range> whole{cv::Range(0, gray.cols)};
    if (gray.cols < 8 || gray.rows < 4 || textHeight < 1) {
        return whole;
    }
    const int level = dominantLevel(gray);
    const auto onColumn = columnsOnLabel(gray, level).on;
    // Two labels side by side still cover much of the crop; scene text on a picture has no dominant level.
    if (std::count(onColumn.begin(), onColumn.end(), true) < 0.35 * gray.cols) {
        return whole;
    }
    // Runs of columns on and off the label; a run narrower than a third of the text height (a glyph's stem
    // through a thin crop, a scratch) joins the run before it.
    std::vector<std::pair<cv::Range, bool>> runs;
    for (int x = 0; x < gray.cols; ++x) {
        const bool on = onColumn[x];
        if (runs.empty() || runs.back().second != on) {
            runs.push_back({cv::Range(x, x + 1), on});
        } else {
            runs.back().first.end = x + 1;
        }
    }
    std::vector<std::pair<cv::Range, bool>> merged;
    for (const auto &run : runs) {
        if (!merged.empty() && (run.first.size() * 3 < textHeight || merged.back().second == run.second)) {
            merged.back().first.end = run.first.end;
        } else {
            merged.push_back(run);
        }
    }
    // What leaves the label between two pieces is the background between two labels, or a label of another
    // tone: each piece wide enough to be a line of its own is one.
    std::vector<cv::Range> pieces;
    for (const auto &[range, on] : merged) {
        if (range.size() >= 1.5 * textHeight) {
            pieces.push_back(range);
        }
    }
    return pieces.size() >= 2 ? pieces : whole;
}

cv::Rect labelAround(const cv::Mat &gray) {
    const cv::Rect whole(0, 0, gray.cols, gray.rows);
    if (gray.cols < 8 || gray.rows < 4) {
        return whole;
    }
    const cv::Mat middle = gray(cv::Rect(gray.cols / 4, 0, gray.cols / 2, gray.rows));
    const int level = dominantLevel(middle);
    int inMiddle = 0;
    for (int y = 0; y < middle.rows; ++y) {
        for (int x = 0; x < middle.cols; ++x) {
            inMiddle += isLabel(middle.at<uint8_t>(y, x), level) ? 1 : 0;
        }
    }
    if (inMiddle < labelPresentShare * middle.total()) {
        return whole;
    }
    const auto columns = columnsOnLabel(gray, level);
    std::vector<int> perRow(gray.rows, 0);
    int left = gray.cols / 2, right = gray.cols / 2;
    while (left > 0 && columns.on[left - 1]) --left;
    while (right + 1 < gray.cols && columns.on[right + 1]) ++right;
    const int width = right - left + 1;
    for (int y = 0; y < gray.rows; ++y) {
        const uint8_t *row = gray.ptr<uint8_t>(y);
        for (int x = left; x <= right; ++x) {
            if (isLabel(row[x], columns.level[x])) {
                ++perRow[y];
            }
        }
    }
    // Rows through bold glyphs can hold less of the label than a column ever does (0.14 measured at the x-height
    // of a bold line), so a row walk starts only once it has left the glyphs: at the first clear row of the
    // label's margin above (below) the middle, and goes on while the rows stay on the label.
    const auto edge = [&](int step) {
        int row = gray.rows / 2;
        while (row + step >= 0 && row + step < gray.rows && perRow[row] < clearLabelShare * width) row += step;
        if (perRow[row] < clearLabelShare * width) {
            return step < 0 ? 0 : gray.rows - 1;  // the glyphs reach the crop's edge: keep all of it
        }
        while (row + step >= 0 && row + step < gray.rows && perRow[row + step] >= onLabelShare * width) row += step;
        return row;
    };
    const int top = edge(-1), bottom = edge(+1);
    return cv::Rect(left, top, width, bottom - top + 1);
}

}  // namespace cbridge
