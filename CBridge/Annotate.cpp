// Highlights drawn over a copy of a frame: each item's outline and a label, for annotated videos and snapshots.
#include "Internal.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace {

// BGR. The fills are light enough for black label text to read on them.
const cv::Scalar barcodeColor(80, 200, 40);
const cv::Scalar textColor(0, 150, 255);
// The region of interest: light blue, unlike either kind of item.
const cv::Scalar regionColor(255, 190, 100);
const cv::Scalar labelInk(0, 0, 0);

const cv::Scalar &kindColor(int kind) {
    return kind == CB_ANNOTATION_TEXT ? textColor : kind == CB_ANNOTATION_REGION ? regionColor : barcodeColor;
}

constexpr size_t maxLabelCharacters = 40;

// Barcode outlines go around the quad enlarged by 8% on each side. Linear readers need a quiet zone of
// several modules before the first bar (zxing-cpp's Code 128 reader wants 5), which is 3-8% of a code's
// width; a line in it makes the annotated output unreadable. Text needs no such margin.
constexpr float barcodeGrowth = 1.16f;
constexpr float textGrowth = 1.0f;

/// Line width, font size and spacing for one image: fixed pixel sizes vanish on 4K frames and swamp small ones.
struct Style {
    int lineThickness;
    double fontScale;
    int fontThickness;
    int padding;
    float outlineOffset;  // how far the outline's centre lies outside the quad

    explicit Style(const cv::Size &size) {
        const int shortSide = std::min(size.width, size.height);
        lineThickness = std::max(2, static_cast<int>(std::lround(shortSide / 360.0)));
        fontScale = std::max(0.4, shortSide / 1440.0);
        fontThickness = std::max(1, static_cast<int>(std::lround(fontScale * 1.5)));
        padding = std::max(2, lineThickness);
        // A clear gap of one line width between the symbol's edge and the line's inner side: a line drawn
        // on the edge itself would paint over the outer modules and the quiet zone and break decoding.
        outlineOffset = 1.5f * static_cast<float>(lineThickness) + 1.0f;
    }
};

/// Hershey fonts draw ASCII only, and labels carry untrusted payloads: every control character and every
/// non-ASCII UTF-8 sequence becomes one '?'. Long labels are cut to `maxLabelCharacters`, ending in "...".
std::string printableLabel(const char *label) {
    std::string printable;
    if (label == nullptr) {
        return printable;
    }
    bool insideSequence = false;
    for (const char *cursor = label; *cursor != '\0'; ++cursor) {
        const auto byte = static_cast<unsigned char>(*cursor);
        if (byte >= 0x80) {
            const bool continuation = (byte & 0xC0) == 0x80;
            if (!(continuation && insideSequence)) {
                printable += '?';
            }
            insideSequence = true;
            continue;
        }
        insideSequence = false;
        printable += (byte < 0x20 || byte == 0x7F) ? '?' : static_cast<char>(byte);
    }
    if (printable.size() > maxLabelCharacters) {
        printable.resize(maxLabelCharacters - 3);
        printable += "...";
    }
    return printable;
}

/// The quad scaled about its centre by `growth`, then moved outwards by `offset` on every side (each corner
/// along its mitre), so a line of that half-width drawn on it stays off the item. Degenerate quads (no
/// area) are only scaled.
std::vector<cv::Point2f> outline(const CB_Quad &quad, float growth, float offset) {
    cv::Point2f centre(0, 0);
    for (int index = 0; index < 4; ++index) {
        centre += cv::Point2f(quad.x[index], quad.y[index]) * 0.25f;
    }
    std::vector<cv::Point2f> corners(4);
    for (int index = 0; index < 4; ++index) {
        corners[index] = centre + (cv::Point2f(quad.x[index], quad.y[index]) - centre) * growth;
    }
    float twiceArea = 0;
    for (int index = 0; index < 4; ++index) {
        const auto &a = corners[index];
        const auto &b = corners[(index + 1) % 4];
        twiceArea += a.x * b.y - b.x * a.y;
    }
    if (std::abs(twiceArea) < 1) {
        return corners;
    }
    // The corners may come clockwise or anticlockwise; the sign of the area says which side is outside.
    const float side = twiceArea > 0 ? 1.0f : -1.0f;
    auto outwardNormal = [&](const cv::Point2f &from, const cv::Point2f &to) {
        const cv::Point2f edge = to - from;
        const float length = std::hypot(edge.x, edge.y);
        return length < 1e-3f ? cv::Point2f(0, 0) : cv::Point2f(edge.y, -edge.x) * (side / length);
    };
    std::vector<cv::Point2f> moved(4);
    for (int index = 0; index < 4; ++index) {
        const auto &previous = corners[(index + 3) % 4];
        const auto &corner = corners[index];
        const auto &next = corners[(index + 1) % 4];
        const cv::Point2f before = outwardNormal(previous, corner);
        const cv::Point2f after = outwardNormal(corner, next);
        // Both offset edges meet at corner + offset * (n1 + n2) / (1 + n1.n2). Very sharp corners would
        // send that point far away, so the mitre is capped there.
        const float denominator = std::max(0.25f, 1.0f + before.dot(after));
        moved[index] = corner + (before + after) * (offset / denominator);
    }
    return moved;
}

/// Rounds to whole pixels, clamped well outside the image so OpenCV's fixed-point drawing cannot overflow.
cv::Point pixel(const cv::Point2f &point, const cv::Size &size) {
    const float limit = 4.0f * static_cast<float>(std::max(size.width, size.height)) + 1024.0f;
    return cv::Point(static_cast<int>(std::lround(std::clamp(point.x, -limit, limit))),
                     static_cast<int>(std::lround(std::clamp(point.y, -limit, limit))));
}

/// Where a label box of `size` goes: just above the item's outline, else just below it, else the same
/// right-aligned, whichever covers the least of every item's outline box and of the labels placed so far
/// (a label over a neighbour would hide it and can make it unreadable in the output). Always inside the image.
cv::Rect placeLabel(const cv::Size &size, size_t item, const std::vector<cv::Rect> &itemBoxes,
                    const std::vector<cv::Rect> &placedLabels, const cv::Size &image) {
    const cv::Rect &own = itemBoxes[item];
    const int above = own.y - size.height;
    const int below = own.y + own.height;
    const int left = own.x;
    const int right = own.x + own.width - size.width;
    const cv::Point candidates[] = {{left, above}, {left, below}, {right, above}, {right, below}};
    cv::Rect best;
    long bestOverlap = -1;
    for (const auto &candidate : candidates) {
        const cv::Rect box(std::clamp(candidate.x, 0, std::max(0, image.width - size.width)),
                           std::clamp(candidate.y, 0, std::max(0, image.height - size.height)), size.width,
                           size.height);
        long overlap = 0;
        for (const auto &other : itemBoxes) {
            overlap += (box & other).area();
        }
        for (const auto &other : placedLabels) {
            overlap += (box & other).area();
        }
        if (bestOverlap < 0 || overlap < bestOverlap) {
            best = box;
            bestOverlap = overlap;
        }
    }
    return best;
}

/// Draws `label` in a filled box at `box` (sized by `labelSize`).
void drawLabel(cv::Mat &canvas, const std::string &label, const cv::Rect &box, const cv::Scalar &fill,
               const Style &style) {
    cv::rectangle(canvas, box, fill, cv::FILLED);
    int baseline = 0;
    const cv::Size text =
        cv::getTextSize(label, cv::FONT_HERSHEY_SIMPLEX, style.fontScale, style.fontThickness, &baseline);
    const cv::Point origin(box.x + style.padding, box.y + style.padding + text.height);
    cv::putText(canvas, label, origin, cv::FONT_HERSHEY_SIMPLEX, style.fontScale, labelInk, style.fontThickness,
                cv::LINE_AA);
}

/// The size of the filled box around `label`.
cv::Size labelSize(const std::string &label, const Style &style) {
    int baseline = 0;
    const cv::Size text =
        cv::getTextSize(label, cv::FONT_HERSHEY_SIMPLEX, style.fontScale, style.fontThickness, &baseline);
    return cv::Size(text.width + 2 * style.padding, text.height + baseline + 2 * style.padding);
}

}  // namespace

extern "C" CB_Status CB_Image_copy_annotated(const CB_Image *image, const CB_Annotation *annotations, size_t count,
                                             CB_Image **out_image) {
    CB_TRY
    CB_REQUIRE(image != nullptr && out_image != nullptr, "CB_Image_copy_annotated: NULL argument");
    CB_REQUIRE(annotations != nullptr || count == 0, "CB_Image_copy_annotated: NULL annotations");
    *out_image = nullptr;
    for (size_t index = 0; index < count; ++index) {
        const auto &annotation = annotations[index];
        CB_REQUIRE(annotation.kind == CB_ANNOTATION_BARCODE || annotation.kind == CB_ANNOTATION_TEXT ||
                       annotation.kind == CB_ANNOTATION_REGION,
                   "CB_Image_copy_annotated: kind must be CB_ANNOTATION_BARCODE, _TEXT or _REGION");
        for (int corner = 0; corner < 4; ++corner) {
            CB_REQUIRE(std::isfinite(annotation.quad.x[corner]) && std::isfinite(annotation.quad.y[corner]),
                       "CB_Image_copy_annotated: a quad corner is not a finite number");
        }
    }
    cv::Mat canvas = image->bgr().clone();
    const Style style(canvas.size());

    // Outlines first, then every label over them, so no outline crosses a label.
    std::vector<cv::Rect> itemBoxes(count);
    for (size_t index = 0; index < count; ++index) {
        const auto &annotation = annotations[index];
        std::vector<cv::Point> points;
        if (annotation.kind == CB_ANNOTATION_REGION) {
            for (int corner = 0; corner < 4; ++corner) {
                points.push_back(
                    pixel(cv::Point2f(annotation.quad.x[corner], annotation.quad.y[corner]), canvas.size()));
            }
        } else {
            const float growth = annotation.kind == CB_ANNOTATION_TEXT ? textGrowth : barcodeGrowth;
            for (const auto &point : outline(annotation.quad, growth, style.outlineOffset)) {
                points.push_back(pixel(point, canvas.size()));
            }
        }
        const auto &color = kindColor(annotation.kind);
        cv::polylines(canvas, points, true, color, style.lineThickness, cv::LINE_AA);
        // The part of the image the outline encloses, the line's outer half included. Clipped to the image:
        // only the visible part matters for placing labels, and it keeps the areas summed there small.
        const int half = (style.lineThickness + 1) / 2;
        const cv::Rect box = cv::boundingRect(points);
        itemBoxes[index] = cv::Rect(box.x - half, box.y - half, box.width + 2 * half, box.height + 2 * half) &
                           cv::Rect(0, 0, canvas.cols, canvas.rows);
    }
    std::vector<cv::Rect> placedLabels;
    for (size_t index = 0; index < count; ++index) {
        const std::string label = printableLabel(annotations[index].label);
        // An item wholly outside the image gets no label: there is nothing in view for it to name.
        if (label.empty() || itemBoxes[index].empty()) {
            continue;
        }
        const cv::Rect box = placeLabel(labelSize(label, style), index, itemBoxes, placedLabels, canvas.size());
        const auto &fill = kindColor(annotations[index].kind);
        drawLabel(canvas, label, box, fill, style);
        placedLabels.push_back(box);
    }
    *out_image = new CB_Image(std::move(canvas));
    return CB_OK;
    CB_CATCH
}
