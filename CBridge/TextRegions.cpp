#include "Internal.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cstdlib>

namespace {

/// The widest gap between two words of one line, in line heights. It has to span more than a word space: the
/// opening that drops slivers eats the arms of a bold E, leaving a gap of 1.1 line heights inside the demo's
/// "LIVESCAN". The price is that lines run across a narrow column gutter (at 0.9 the magazine pages' CER
/// fell from 0.606 to 0.447, but the headline broke in two).
constexpr double maxWordGap = 1.2;

/// Whether `a` and `b` belong to one line: on one baseline with a gap under `maxWordGap`, or one mostly
/// inside the other (a dot, a hyphen, the foot of a glyph belongs to its line whatever its size).
bool belongTogether(const cv::Rect &a, const cv::Rect &b) {
    const int overlap = std::min(a.y + a.height, b.y + b.height) - std::max(a.y, b.y);
    const int lower = std::min(a.height, b.height), higher = std::max(a.height, b.height);
    const int gap = std::max(a.x, b.x) - std::min(a.x + a.width, b.x + b.width);
    const bool sameLine = overlap > 0.6 * lower && higher < 1.6 * lower && gap < maxWordGap * higher;
    const bool inside = (a & b).area() >= 0.5 * std::min(a.area(), b.area());
    return sameLine || inside;
}

/// A row whose edge pixels are at most this share of the busiest row's lies between two lines.
constexpr double valleyShare = 0.1;

/// Small type with tight leading (receipts, labels, columns of print) closes into one blob of several lines,
/// which Tesseract cannot read as one line. The rows of edge pixels show the lines as bands: the blob is cut at
/// the emptiest row between each two bands at least `minHeight / 2` tall, and each part is trimmed to its edges.
std::vector<cv::Rect> splitIntoLines(const cv::Mat &edges, const cv::Rect &box, double minHeight) {
    if (box.height < 2 * minHeight) {
        return {box};
    }
    std::vector<int> ink(box.height);
    for (int row = 0; row < box.height; ++row) {
        ink[row] = cv::countNonZero(edges(cv::Rect(box.x, box.y + row, box.width, 1)));
    }
    const double valley = valleyShare * *std::max_element(ink.begin(), ink.end());
    std::vector<int> cuts;
    int previousBandEnd = -1;
    for (int row = 0; row < box.height;) {
        if (ink[row] <= valley) {
            ++row;
            continue;
        }
        const int start = row;
        while (row < box.height && ink[row] > valley) {
            ++row;
        }
        if (row - start < minHeight / 2) {
            continue;  // an accent, a descender's tail: part of the band next to it
        }
        if (previousBandEnd >= 0) {
            cuts.push_back(int(std::min_element(ink.begin() + previousBandEnd, ink.begin() + start) - ink.begin()));
        }
        previousBandEnd = row;
    }
    if (cuts.empty()) {
        return {box};
    }
    cuts.push_back(box.height);
    std::vector<cv::Rect> parts;
    int top = 0;
    for (const int cut : cuts) {
        std::vector<cv::Point> points;
        cv::findNonZero(edges(cv::Rect(box.x, box.y + top, box.width, cut - top)), points);
        const cv::Rect part = points.empty() ? cv::Rect() : cv::boundingRect(points) + cv::Point(box.x, box.y + top);
        if (part.height >= minHeight) {
            parts.push_back(part);
        }
        top = cut;
    }
    return parts;
}

/// Joins word boxes into lines, in one sweep from left to right. A box joins the line it belongs to; the grown
/// line may now reach another line, so it is taken out and placed again, joining lines until it reaches none.
/// No two lines left belong together, and each join removes one rectangle: at most 2n searches of n lines.
/// Two earlier versions took cubic time on noise (found by fuzz_raw_frame): one restarted after every join,
/// the next repeated whole sweeps until nothing joined, 857 sweeps over 1,500 boxes (6.7 s) on one frame.
std::vector<cv::Rect> mergeIntoLines(std::vector<cv::Rect> boxes) {
    std::sort(boxes.begin(), boxes.end(), [](const cv::Rect &a, const cv::Rect &b) { return a.x < b.x; });
    std::vector<cv::Rect> lines;
    for (cv::Rect growing : boxes) {
        for (;;) {
            const auto line = std::find_if(lines.rbegin(), lines.rend(), [&](const cv::Rect &candidate) {
                return belongTogether(candidate, growing);
            });
            if (line == lines.rend()) {
                break;
            }
            growing |= *line;
            lines.erase(std::next(line).base());
        }
        lines.push_back(growing);
    }
    return lines;
}

/// What lines are found in. Strokes have strong, dense edges: the morphological gradient lights them up (`edges`),
/// and a horizontal closing joins the letters of a word into one blob that a contour can box (`words`).
struct StrokeMasks {
    cv::Mat edges, words;
};

StrokeMasks strokeMasks(const cv::Mat &gray) {
    StrokeMasks masks;
    cv::Mat gradient;
    cv::morphologyEx(gray, gradient, cv::MORPH_GRADIENT, cv::getStructuringElement(cv::MORPH_ELLIPSE, {3, 3}));
    // Otsu alone sets the bar by the strongest edges in view: next to black codes it rises so high that
    // anti-aliased glyphs fall apart. Cap it (ink on paper gives edges of 100+, sensor noise under 20).
    const double otsu = cv::threshold(gradient, masks.edges, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
    cv::threshold(gradient, masks.edges, std::clamp(otsu, 20.0, 48.0), 255, cv::THRESH_BINARY);
    // A horizontal closing joins the letters of a word into one blob; an opening drops what is left of
    // thin slivers.
    cv::morphologyEx(masks.edges, masks.words, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, {9, 3}));
    cv::morphologyEx(masks.words, masks.words, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_RECT, {3, 5}));
    return masks;
}

/// Noise (a sensor at night, a random picture) can make thousands of blobs; text never does.
constexpr size_t maximumCandidates = 1500;

/// The boxes of the blobs of `masks.words` that may be words: from `minHeight` to `maxHeight` tall and mostly
/// filled, a blob of several lines cut into its lines; at most `maximumCandidates` of them, the largest.
std::vector<cv::Rect> wordBoxes(const StrokeMasks &masks, double minHeight, double maxHeight) {
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(masks.words, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
    std::vector<cv::Rect> boxes;
    for (const auto &contour : contours) {
        const cv::Rect box = cv::boundingRect(contour);
        // Glyphs and words: a narrow digit such as "1" counts too, lines are judged after merging.
        if (box.height < minHeight || box.height > maxHeight || box.width < 2) {
            continue;
        }
        const double filled = cv::countNonZero(masks.words(box)) / double(box.area());
        if (filled > 0.35) {
            for (const cv::Rect &part : splitIntoLines(masks.edges, box, minHeight)) {
                boxes.push_back(part);
            }
        }
    }
    if (boxes.size() > maximumCandidates) {
        std::nth_element(boxes.begin(), boxes.begin() + maximumCandidates, boxes.end(),
                         [](const cv::Rect &a, const cv::Rect &b) { return a.area() > b.area(); });
        boxes.resize(maximumCandidates);
    }
    return boxes;
}

/// The regions to read of `lines` (found in `source` reduced by `scale`), in `source`'s pixels: each line with a
/// margin, clipped to the picture, and cut where it joins two labels side by side.
std::vector<cv::Rect> regionsToRead(const cv::Mat &source, const std::vector<cv::Rect> &lines, double scale) {
    const cv::Rect frame(0, 0, source.cols, source.rows);
    std::vector<cv::Rect> regions;
    for (const cv::Rect &line : lines) {
        // Tesseract reads a line best with some margin around the glyphs.
        const double padX = 0.4 * line.height, padY = 0.25 * line.height;
        const cv::Rect padded = cv::Rect(int((line.x - padX) / scale), int((line.y - padY) / scale),
                                         int((line.width + 2 * padX) / scale), int((line.height + 2 * padY) / scale)) &
                                frame;
        if (padded.empty()) {
            continue;
        }
        // Two labels side by side can be joined into one line: each is a line of its own.
        for (const cv::Range &piece : cbridge::labelPieces(source(padded), int(line.height / scale))) {
            regions.emplace_back(padded.x + piece.start, padded.y, piece.size(), padded.height);
        }
    }
    return regions;
}

/// Hands `regions` (in the upright picture's pixels) over to the caller as a calloc'ed array in the stored
/// picture's pixels (CB_Rects_free frees it); nothing when there are none.
CB_Status handOver(const CB_Image &image, const std::vector<cv::Rect> &regions, CB_Rect **out_rects,
                   size_t *out_count) {
    if (regions.empty()) {
        return CB_OK;
    }
    auto *array = static_cast<CB_Rect *>(std::calloc(regions.size(), sizeof(CB_Rect)));
    CB_REQUIRE(array != nullptr, "out of memory");
    for (size_t index = 0; index < regions.size(); ++index) {
        const cv::Rect stored(
            image.orientation.toStored(cv::Rect2f(regions[index]), cv::Size(image.width(), image.height())));
        array[index] = CB_Rect{stored.x, stored.y, stored.width, stored.height};
    }
    *out_rects = array;
    *out_count = regions.size();
    return CB_OK;
}

}  // namespace

extern "C" CB_Status CB_TextRegions_find(const CB_Image *image, const CB_TextRegionOptions *options,
                                         CB_Rect **out_rects, size_t *out_count) {
    CB_TRY
    CB_REQUIRE(image != nullptr && options != nullptr && out_rects != nullptr && out_count != nullptr,
               "CB_TextRegions_find: NULL argument");
    *out_rects = nullptr;
    *out_count = 0;
    // Looked for on the upright picture, where lines run left to right; returned in the stored picture's pixels.
    const cv::Mat &source = image->uprightGray();
    double scale = 1;
    const int longSide = std::max(source.cols, source.rows);
    if (options->max_dimension > 0 && longSide > options->max_dimension) {
        scale = double(options->max_dimension) / longSide;
    }
    cv::Mat gray = source;
    if (scale != 1) {
        gray = cbridge::resized(gray, scale, cv::INTER_AREA);
    }
    const double minHeight = std::max(4.0, options->min_height * scale);
    const double maxHeight = options->max_height > 0 ? options->max_height * scale : gray.rows;
    const StrokeMasks masks = strokeMasks(gray);
    std::vector<cv::Rect> lines;
    for (const auto &line : mergeIntoLines(wordBoxes(masks, minHeight, maxHeight))) {
        // A line of text is wider than it is tall; single glyphs and square code blocks are not lines.
        if (line.width >= 1.5 * line.height) {
            lines.push_back(line);
        }
    }
    return handOver(*image, regionsToRead(source, lines, scale), out_rects, out_count);
    CB_CATCH
}

extern "C" void CB_Rects_free(CB_Rect *rects) { std::free(rects); }
