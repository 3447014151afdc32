// Highlights drawn over a copy of a frame: each item's outline and a label, for annotated videos and snapshots.
#include "Internal.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace {

// BGR. Both fills are light enough for black label text to read on them.
const cv::Scalar barcodeColor(80, 200, 40);
const cv::Scalar textColor(0, 150, 255);
const cv::Scalar labelInk(0, 0, 0);

constexpr size_t maxLabelCharacters = 40;

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

/// The quad moved outwards by `offset` on every side (each corner along its mitre), so a line of that
/// half-width drawn on it stays off the item. Degenerate quads (no area) are returned as they are.
std::vector<cv::Point2f> outline(const CB_Quad &quad, float offset) {
    std::vector<cv::Point2f> corners(4);
    for (int index = 0; index < 4; ++index) {
        corners[index] = cv::Point2f(quad.x[index], quad.y[index]);
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

/// The label's filled box, just above the outline's bounding box, else just below it, always inside the
/// image (overlapping the item only when it is nearly as tall as the image).
void drawLabel(cv::Mat &canvas, const std::string &label, const cv::Rect &itemBox, const cv::Scalar &fill,
               const Style &style) {
    int baseline = 0;
    const cv::Size text =
        cv::getTextSize(label, cv::FONT_HERSHEY_SIMPLEX, style.fontScale, style.fontThickness, &baseline);
    const cv::Size box(text.width + 2 * style.padding, text.height + baseline + 2 * style.padding);
    int top = itemBox.y - box.height;
    if (top < 0) {
        top = itemBox.y + itemBox.height;
    }
    top = std::clamp(top, 0, std::max(0, canvas.rows - box.height));
    const int left = std::clamp(itemBox.x, 0, std::max(0, canvas.cols - box.width));
    cv::rectangle(canvas, cv::Rect(cv::Point(left, top), box), fill, cv::FILLED);
    const cv::Point origin(left + style.padding, top + style.padding + text.height);
    cv::putText(canvas, label, origin, cv::FONT_HERSHEY_SIMPLEX, style.fontScale, labelInk, style.fontThickness,
                cv::LINE_AA);
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
        CB_REQUIRE(annotation.kind == CB_ANNOTATION_BARCODE || annotation.kind == CB_ANNOTATION_TEXT,
                   "CB_Image_copy_annotated: kind must be CB_ANNOTATION_BARCODE or CB_ANNOTATION_TEXT");
        for (int corner = 0; corner < 4; ++corner) {
            CB_REQUIRE(std::isfinite(annotation.quad.x[corner]) && std::isfinite(annotation.quad.y[corner]),
                       "CB_Image_copy_annotated: a quad corner is not a finite number");
        }
    }
    auto copy = std::make_unique<CB_Image>(CB_Image{image->pixels.clone()});
    cv::Mat &canvas = copy->pixels;
    const Style style(canvas.size());

    // Outlines first, then every label over them, so no outline crosses a label.
    std::vector<cv::Rect> itemBoxes(count);
    for (size_t index = 0; index < count; ++index) {
        const auto &annotation = annotations[index];
        std::vector<cv::Point> points;
        for (const auto &point : outline(annotation.quad, style.outlineOffset)) {
            points.push_back(pixel(point, canvas.size()));
        }
        const auto &color = annotation.kind == CB_ANNOTATION_TEXT ? textColor : barcodeColor;
        cv::polylines(canvas, points, true, color, style.lineThickness, cv::LINE_AA);
        // The box the drawn line covers, its outer half included.
        const int half = (style.lineThickness + 1) / 2;
        const cv::Rect box = cv::boundingRect(points);
        itemBoxes[index] = cv::Rect(box.x - half, box.y - half, box.width + 2 * half, box.height + 2 * half);
    }
    for (size_t index = 0; index < count; ++index) {
        const std::string label = printableLabel(annotations[index].label);
        if (!label.empty()) {
            const auto &fill = annotations[index].kind == CB_ANNOTATION_TEXT ? textColor : barcodeColor;
            drawLabel(canvas, label, itemBoxes[index], fill, style);
        }
    }
    *out_image = copy.release();
    return CB_OK;
    CB_CATCH
}
