// Shared by the CBridge sources, never seen by Swift: the exception firewall and handle layouts.
#pragma once

#include "CBridge.h"
#include "Cancellation.hpp"

#include <opencv2/core.hpp>

#include <cmath>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace cbridge {

/// The CB_Format flags of linear (1-D) codes: read along a line across their bars, which are the same all along
/// their height. Not DX film edge: its two tracks (a clock above the data) differ.
constexpr int linearFormats = CB_FORMAT_CODABAR | CB_FORMAT_CODE39 | CB_FORMAT_CODE93 | CB_FORMAT_CODE128 |
                              CB_FORMAT_DATABAR | CB_FORMAT_DATABAR_EXPANDED | CB_FORMAT_EAN8 | CB_FORMAT_EAN13 |
                              CB_FORMAT_ITF | CB_FORMAT_UPCA | CB_FORMAT_UPCE | CB_FORMAT_TELEPEN;

/// Leaves `message` for CB_last_error() on this thread and returns `status`.
CB_Status fail(CB_Status status, const std::string &message);

/// `source` scaled by `factor`, each side at least one pixel: cv::resize with a factor rounds a side of a very
/// thin image (1 x 100000 reduced to 1920 px) to 0 and then fails its own assertion.
cv::Mat resized(const cv::Mat &source, double factor, int interpolation);

/// Grows the quad of every linear code among `barcodes` from the rows its read scanned to the full height of its
/// bars in `gray` (the whole image the quads are in): bounds that stay put whichever rows a read happened to use.
void coverBarHeights(const cv::Mat &gray, CB_Barcode *barcodes, size_t count);

/// The part of a text line's crop `gray` that is on the label the line is printed on (TextLabel.cpp): its edges,
/// a printed frame and the background beyond are cut off, so they are not read as characters. The whole crop
/// when no uniform label is behind the text.
cv::Rect labelAround(const cv::Mat &gray);

/// The column ranges of a line candidate's crop `gray` that are each on a label of their own, when the locator
/// joined two labels side by side into one line (TextLabel.cpp); the whole width when it did not.
std::vector<cv::Range> labelPieces(const cv::Mat &gray, int textHeight);

/// The mean of the quad's four corners.
inline cv::Point2d centreOf(const CB_Quad &quad) {
    return {(quad.x[0] + quad.x[1] + quad.x[2] + quad.x[3]) / 4.0,
            (quad.y[0] + quad.y[1] + quad.y[2] + quad.y[3]) / 4.0};
}

/// A scan line across a linear code's bars: from the middle of its quad's left edge to the middle of its right
/// edge (zxing's own orientation: for a code read upside down, "left" is its start), and the unit vectors along
/// it and across it (BarHeight.cpp, SameBars.cpp).
struct ScanAxis {
    cv::Point2d left, right, along, across;
    double length = 0;

    explicit ScanAxis(const CB_Quad &quad) {
        left = {(quad.x[0] + quad.x[3]) / 2.0, (quad.y[0] + quad.y[3]) / 2.0};
        right = {(quad.x[1] + quad.x[2]) / 2.0, (quad.y[1] + quad.y[2]) / 2.0};
        length = std::hypot(right.x - left.x, right.y - left.y);
        along = length > 0 ? (right - left) / length : cv::Point2d(1, 0);
        across = {-along.y, along.x};
    }
    /// Where `point` lies: how far along the line and how far across it, from its start.
    cv::Point2d coordinates(cv::Point2d point) const { return {(point - left).dot(along), (point - left).dot(across)}; }
};

/// Copies a std::string into a malloc'ed, NUL-terminated buffer, for an array that owns it (its `_free` frees it).
char *copyString(const std::string &text);
/// The size in bytes of the regular file at `path`; nothing when there is none (missing, or a folder).
std::optional<long long> regularFileSize(const std::string &path);
/// The message for a picture of `width` x `height` over `maxPixels` (0 = no limit): "30000 x 30000 pixels (900.0
/// megapixels), over the limit of 100.0 megapixels"; nothing when it is within the limit. One wording for image
/// files and video frames.
std::optional<std::string> pixelLimitExceeded(long long width, long long height, long long maxPixels);
/// An axis-aligned rectangle's corners, from its top left clockwise.
inline CB_Quad quadOf(const cv::Rect2f &box) {
    CB_Quad quad;
    quad.x[0] = box.x, quad.y[0] = box.y;
    quad.x[1] = box.x + box.width, quad.y[1] = box.y;
    quad.x[2] = box.x + box.width, quad.y[2] = box.y + box.height;
    quad.x[3] = box.x, quad.y[3] = box.y + box.height;
    return quad;
}

/// A text line cut out of a picture upright, as PaddleOCR cuts its crops (get_rotate_crop_image), for a reader of
/// single lines (Tesseract, PP-OCR's recogniser).
struct LineCrop {
    /// 8-bit BGR, the line reading left to right.
    cv::Mat pixels;
    /// Maps a rectangle of `pixels` (left, top, right, bottom) back to a quad in the picture's pixels.
    CB_Quad toImage(int left, int top, int right, int bottom) const;

    /// From cutting: the perspective from the picture to the crop before any quarter turn, and that turn.
    cv::Mat toCrop;
    int cutWidth = 0;
    bool turned = false;
};
/// Cuts the quadrilateral `quad` (corners as CB_Quad orders them: the text's top-left first) out of `image` upright
/// in colour with cv::warpPerspective (bicubic, edges replicated), its sides the longer of each opposite pair,
/// scaled so that its short side is `height` pixels (0 = as cut, but at most `mostHeight` when that is not 0). A
/// quad at least 1.5 times taller than wide is turned a quarter counter-clockwise, as PaddleOCR turns its crops.
/// Nothing (an empty `pixels`) when a side is under 2 or over 16384 pixels. Throws std::invalid_argument when a
/// corner is not a finite number.
LineCrop cutLine(const CB_Image &image, const CB_Quad &quad, double height, double mostHeight = 0);
/// How a picture's stored pixels are turned to be shown upright: an Exif orientation, 1 (as stored) to 8
/// (Orientation.cpp). Positions are reported in the stored pixels, as barcode readers and labelled sets give them;
/// text is read on the upright picture, since Tesseract reads only upright lines.
struct Orientation {
    int exif = 1;

    bool isUpright() const { return exif == 1; }
    /// The stored picture turned upright.
    cv::Mat upright(const cv::Mat &stored) const;
    /// A point of the upright picture in the stored picture of size `stored`.
    cv::Point2f toStored(cv::Point2f point, cv::Size stored) const;
    /// A rectangle of the upright picture in the stored picture of size `stored`, and back.
    cv::Rect2f toStored(const cv::Rect2f &rect, cv::Size stored) const;
    cv::Rect2f toUpright(const cv::Rect2f &rect, cv::Size stored) const;
};

/// The orientation a JPEG's Exif block (APP1, IFD0 tag 0x0112) states; upright when it states none or a
/// value out of range.
Orientation exifOrientation(const std::vector<uint8_t> &jpeg);

}  // namespace cbridge

/// A picture in colour (8-bit BGR) and in grey, each made on first use and then kept. Video frames arrive as
/// their decoder's I420 planes, whose first plane is the grey picture but for its range: most frames never need
/// colour, and readers on several threads (barcodes, text) share one grey copy instead of converting one each.
struct CB_Image {
    /// From 8-bit BGR.
    explicit CB_Image(cv::Mat bgr);
    /// From video-range (16...235) I420 planes: the luma (even width and height) and the two quarter-size chroma
    /// planes (CV_8UC1 each, rows of any stride: a decoder's are padded to its alignment). Views hold their Mat's
    /// pixels; `owner`, when not null, holds pixels the Mats only borrow (a decoder's frame). The grey is the luma
    /// stretched to 0...255, as a BGR conversion would give it.
    static CB_Image *fromI420(cv::Mat luma, cv::Mat blue, cv::Mat red, std::shared_ptr<const void> owner = nullptr);
    /// From 8-bit gray (CV_8UC1).
    static CB_Image *fromGray(cv::Mat gray);

    CB_Image(const CB_Image &) = delete;
    CB_Image &operator=(const CB_Image &) = delete;

    int width() const { return width_; }
    int height() const { return height_; }
    /// 8-bit BGR, CV_8UC3. Thread-safe.
    const cv::Mat &bgr() const;
    /// 8-bit grey, CV_8UC1. Thread-safe.
    const cv::Mat &gray() const;
    /// How the stored pixels are shown upright (an image file's Exif orientation); frames are upright.
    cbridge::Orientation orientation;
    /// gray() turned upright (gray() itself when it is). Thread-safe.
    const cv::Mat &uprightGray() const;
    /// The mean gray of every `cell` x `cell` block of gray() (cells cut by the right or bottom edge left out),
    /// rounded half to even. Kept for the first cell size asked, so that a frame's means can be made ahead of its
    /// turn, on another thread, and read when its turn comes (the change-gated barcode reader); another size is
    /// computed each time. Thread-safe.
    cv::Mat cellMeans(int cell) const;

private:
    CB_Image() = default;
    int width_ = 0;
    int height_ = 0;
    cv::Mat luma_, blue_, red_;
    std::shared_ptr<const void> owner_;
    mutable cv::Mat bgr_;
    mutable cv::Mat gray_;
    mutable std::once_flag bgrMade_;
    mutable std::once_flag grayMade_;
    mutable cv::Mat uprightGray_;
    mutable std::once_flag uprightGrayMade_;
    mutable cv::Mat cellMeans_;
    mutable int cellMeansCell_ = 0;
    mutable std::once_flag cellMeansMade_;
};

// Every entry point's body runs between these: no C++ exception may cross the C header.
#define CB_TRY try {
#define CB_CATCH                                                                        \
    }                                                                                   \
    catch (const cv::Exception &error) {                                                \
        return cbridge::fail(CB_ENGINE_FAILED, std::string("OpenCV: ") + error.what()); \
    }                                                                                   \
    catch (const cbridge::Cancelled &error) {                                           \
        return cbridge::fail(CB_CANCELLED, error.what());                               \
    }                                                                                   \
    catch (const std::bad_alloc &) {                                                    \
        return cbridge::fail(CB_ENGINE_FAILED, "out of memory");                        \
    }                                                                                   \
    catch (const std::exception &error) {                                               \
        return cbridge::fail(CB_ENGINE_FAILED, error.what());                           \
    }                                                                                   \
    catch (...) {                                                                       \
        return cbridge::fail(CB_ENGINE_FAILED, "unknown C++ exception");                \
    }

#define CB_REQUIRE(condition, message)                          \
    do {                                                        \
        if (!(condition)) {                                     \
            return cbridge::fail(CB_INVALID_ARGUMENT, message); \
        }                                                       \
    } while (0)
