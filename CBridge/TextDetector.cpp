#include "Internal.hpp"
#include "OnnxRuntime.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>

// PP-OCRv4's DB ("differentiable binarisation") text detector, run by ONNX Runtime (OnnxRuntime.hpp): the network
// gives every pixel a probability of being text; regions above a threshold, grown back by the margin the network was
// trained to shrink them by, are the text boxes. The post-processing is PaddleOCR's DBPostProcess ("fast" box score),
// as rapidocr-onnxruntime 1.4.4 runs it: Benchmarks/text-detector-study.md measured that pipeline.

struct CB_TextDetector {
    /// The network, read once; ONNX Runtime runs it at any input size, from several threads at once.
    std::unique_ptr<cbridge::OnnxNetwork> network;
};

namespace {

/// Contours looked at, most first found, per image (PaddleOCR's max_candidates).
constexpr size_t maxCandidates = 1000;

/// The rectangle's corners as PaddleOCR's get_mini_boxes orders them: of the two left-most corners the upper is
/// the top-left, the lower the bottom-left; of the two right-most the upper is the top-right. The short side too.
std::array<cv::Point2f, 4> orderedCorners(const cv::RotatedRect &box, float *shortSide) {
    std::array<cv::Point2f, 4> corners;
    box.points(corners.data());
    std::sort(corners.begin(), corners.end(), [](const cv::Point2f &a, const cv::Point2f &b) { return a.x < b.x; });
    if (corners[0].y > corners[1].y) std::swap(corners[0], corners[1]);
    if (corners[2].y > corners[3].y) std::swap(corners[2], corners[3]);
    *shortSide = std::min(box.size.width, box.size.height);
    // top-left, top-right, bottom-right, bottom-left
    return {corners[0], corners[2], corners[3], corners[1]};
}

/// The mean probability inside the polygon (PaddleOCR's box_score_fast).
double boxScore(const cv::Mat &probability, const std::array<cv::Point2f, 4> &corners) {
    float minX = corners[0].x, maxX = minX, minY = corners[0].y, maxY = minY;
    for (const auto &p : corners) {
        minX = std::min(minX, p.x), maxX = std::max(maxX, p.x);
        minY = std::min(minY, p.y), maxY = std::max(maxY, p.y);
    }
    const int x0 = std::clamp(int(std::floor(minX)), 0, probability.cols - 1);
    const int x1 = std::clamp(int(std::ceil(maxX)), 0, probability.cols - 1);
    const int y0 = std::clamp(int(std::floor(minY)), 0, probability.rows - 1);
    const int y1 = std::clamp(int(std::ceil(maxY)), 0, probability.rows - 1);
    cv::Mat mask = cv::Mat::zeros(y1 - y0 + 1, x1 - x0 + 1, CV_8U);
    std::vector<cv::Point> polygon;
    for (const auto &p : corners) {
        polygon.emplace_back(int(p.x) - x0, int(p.y) - y0);
    }
    cv::fillPoly(mask, std::vector<std::vector<cv::Point>>{polygon}, cv::Scalar(1));
    return cv::mean(probability(cv::Rect(x0, y0, mask.cols, mask.rows)), mask)[0];
}

/// The size the network reads the image at: the short side scaled to `shortSide`, the long side at most
/// `maxLongSide`, never enlarged more than twice, each side a multiple of 32 (the network's stride).
cv::Size inputSize(int width, int height, int shortSide, int maxLongSide) {
    double ratio = double(shortSide) / std::min(width, height);
    if (maxLongSide > 0) {
        ratio = std::min(ratio, double(maxLongSide) / std::max(width, height));
    }
    ratio = std::min(ratio, 2.0);
    const auto side = [ratio](int length) { return std::max(32, int(std::lround(length * ratio / 32)) * 32); };
    return {side(width), side(height)};
}

/// The network's output for the picture `input` (already at the size it is read at): its text probability map, as
/// a blob. With `keepsNetwork`, the buffers of the run are kept for the next (a video's frames, one size); else
/// given back after it (a network's buffers take 150-280 MB at 960x544-1312x736).
cv::Mat runNetwork(const CB_TextDetector &detector, const cv::Mat &input, bool keepsNetwork,
                   CB_Cancellation *cancellation) {
    // (pixel - 127.5) / 127.5 per BGR channel, as PaddleOCR normalises (mean 0.5, std 0.5 of pixel / 255).
    return detector.network->run(cbridge::planarBlob(input, 127.5, 1 / 127.5), !keepsNetwork, cancellation);
}

/// Pixels of context each strip reads past the seam it shares with the next (network pixels, a multiple of the
/// stride): the probability at a seam is computed with this much picture on both sides of it, as the whole picture
/// would give it for text no taller than that.
constexpr int stripOverlap = 128;

/// The text probability map of `upright` read at `size` (size.height x size.width, CV_32F). The network's buffers
/// grow with its input (150 MB at 960x544, 277 MB at 1312x736): with `maxInputPixels` > 0, a larger input is read as
/// strips of equal length across its long side (side by side in a landscape picture, one above the other in a
/// portrait one), each at most that many pixels with its overlap (or as few as fit), each strip's map taken up to the
/// middle of the overlap it shares with the next. Same scale, same pixels, a bounded memory; the time is the whole
/// input's and the overlaps'. Each strip spans the picture's short side whole: a portrait picture cut into
/// columns, 352 of its 736 network pixels wide, cut most of its lines along their length, and the detector missed
/// words there that it finds in the whole picture (a sign in a 450x800 hand-held clip).
cv::Mat probabilityMap(const CB_TextDetector &detector, const cv::Mat &upright, cv::Size size, int maxInputPixels,
                       bool keepsNetwork, CB_Cancellation *cancellation) {
    cv::Mat input;
    cv::resize(upright, input, size, 0, 0, cv::INTER_LINEAR);
    // The strips' length runs along the long side; their breadth is the short side, whole.
    const bool bands = size.height > size.width;
    const int length = bands ? size.height : size.width, breadth = bands ? size.width : size.height;
    const auto span = [bands, &size](int start, int extent) {
        return bands ? cv::Rect(0, start, size.width, extent) : cv::Rect(start, 0, extent, size.height);
    };
    // n strips of equal length, a multiple of the stride, covering the long side with their overlaps.
    const auto lengthOf = [&](int n) {
        return std::min(length, ((length + (n - 1) * stripOverlap + n - 1) / n + 31) / 32 * 32);
    };
    int strips = 1;
    while (maxInputPixels > 0 && lengthOf(strips) * breadth > maxInputPixels &&
           lengthOf(strips + 1) > 2 * stripOverlap) {
        ++strips;
    }
    const int stripLength = lengthOf(strips);
    cv::Mat probability(size, CV_32F);
    int done = 0;  // the map's rows or columns filled so far
    for (int strip = 0; strip < strips; ++strip) {
        const int start = strips == 1 ? 0 : strip * (length - stripLength) / (strips - 1);
        const cv::Rect part = span(start, stripLength);
        const cv::Mat output = runNetwork(detector, input(part), keepsNetwork, cancellation);
        if (output.dims != 4 || output.size[2] != part.height || output.size[3] != part.width) {
            throw std::runtime_error(
                "CB_TextDetector_detect: the model's output is not one probability map of the "
                "input's size");
        }
        const cv::Mat map(part.height, part.width, CV_32F, const_cast<float *>(output.ptr<float>()));
        const int nextStart = strip + 1 < strips ? (strip + 1) * (length - stripLength) / (strips - 1) : length;
        const int end = strip + 1 < strips ? (nextStart + start + stripLength) / 2 : length;
        map(span(done - start, end - done)).copyTo(probability(span(done, end - done)));
        done = end;
    }
    return probability;
}

/// The outlines of the regions whose probability is above `threshold`, as PaddleOCR finds them.
std::vector<std::vector<cv::Point>> regionsAbove(const cv::Mat &probability, float threshold) {
    cv::Mat bitmap = probability > threshold;
    cv::dilate(bitmap, bitmap, cv::Mat::ones(2, 2, CV_8U));
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(bitmap, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
    return contours;
}

/// A region's rectangle shorter than this, in network pixels, is no text (PaddleOCR's min_size).
constexpr float minSide = 3;

/// The text box of the region `contour` of `probability`, in the pixels of the upright picture of size `picture`
/// (corners in reading order, clipped to it); none when the region is too small or too unsure to be text, or the
/// box is lower than `options.min_height`.
std::optional<CB_TextBox> textBox(const std::vector<cv::Point> &contour, const cv::Mat &probability,
                                  const CB_TextDetectorOptions &options, cv::Size picture) {
    if (contour.size() < 3) {
        return std::nullopt;
    }
    float shortSide = 0;
    const cv::RotatedRect rectangle = cv::minAreaRect(contour);
    const auto corners = orderedCorners(rectangle, &shortSide);
    if (shortSide < minSide) {
        return std::nullopt;
    }
    const double score = boxScore(probability, corners);
    if (score < options.box_threshold) {
        return std::nullopt;
    }
    // Unclip: the network was trained on regions shrunk by area * ratio / perimeter; offsetting the rectangle
    // by that distance and taking the new polygon's minimal rectangle (pyclipper's round join) grows each side
    // by twice the distance.
    const double area = double(rectangle.size.width) * rectangle.size.height;
    const double perimeter = 2.0 * (rectangle.size.width + rectangle.size.height);
    const float distance = float(area * options.unclip_ratio / perimeter);
    const cv::RotatedRect grown(rectangle.center,
                                cv::Size2f(rectangle.size.width + 2 * distance, rectangle.size.height + 2 * distance),
                                rectangle.angle);
    const auto grownCorners = orderedCorners(grown, &shortSide);
    if (shortSide < minSide + 2) {
        return std::nullopt;
    }
    const int width = picture.width, height = picture.height;
    const double scaleX = double(width) / probability.cols, scaleY = double(height) / probability.rows;
    CB_TextBox box{};
    for (int corner = 0; corner < 4; ++corner) {
        box.quad.x[corner] = float(std::clamp(std::round(grownCorners[corner].x * scaleX), 0.0, double(width)));
        box.quad.y[corner] = float(std::clamp(std::round(grownCorners[corner].y * scaleY), 0.0, double(height)));
    }
    const float boxHeight = std::min(std::hypot(box.quad.x[3] - box.quad.x[0], box.quad.y[3] - box.quad.y[0]),
                                     std::hypot(box.quad.x[1] - box.quad.x[0], box.quad.y[1] - box.quad.y[0]));
    if (boxHeight < options.min_height) {
        return std::nullopt;
    }
    box.score = float(score);
    return box;
}

/// Hands `boxes` over to the caller as one malloc'ed array (CB_TextBoxes_free frees it); nothing when there are
/// none.
CB_Status handOver(const std::vector<CB_TextBox> &boxes, CB_TextBox **out_boxes, size_t *out_count) {
    if (boxes.empty()) {
        return CB_OK;
    }
    auto *array = static_cast<CB_TextBox *>(std::malloc(boxes.size() * sizeof(CB_TextBox)));
    CB_REQUIRE(array != nullptr, "out of memory");
    std::copy(boxes.begin(), boxes.end(), array);
    *out_boxes = array;
    *out_count = boxes.size();
    return CB_OK;
}

}  // namespace

extern "C" CB_Status CB_TextDetector_new(const char *runtime_path, const char *model_path, int threads,
                                         CB_TextDetector **out_detector) {
    CB_TRY
    CB_REQUIRE(runtime_path != nullptr && model_path != nullptr && *model_path != '\0' && out_detector != nullptr,
               "CB_TextDetector_new: no model path");
    CB_REQUIRE(threads >= 1 && threads <= CB_MAX_NETWORK_THREADS, "CB_TextDetector_new: threads must be 1...64");
    *out_detector = nullptr;
    if (!cbridge::regularFileSize(model_path)) {
        return cbridge::fail(CB_MODEL_MISSING, std::string("the text detector model ") + model_path +
                                                   " is not installed; run `make setup` to fetch it");
    }
    auto detector = std::make_unique<CB_TextDetector>();
    try {
        // Loaded here, so that a file that is no model fails now, not at the first image.
        detector->network = cbridge::OnnxNetwork::open(runtime_path, model_path, threads);
    } catch (const cbridge::ModelUnavailable &error) {
        return cbridge::fail(CB_MODEL_MISSING, error.what());
    }
    *out_detector = detector.release();
    return CB_OK;
    CB_CATCH
}

extern "C" void CB_TextDetector_delete(CB_TextDetector *detector) { delete detector; }

extern "C" CB_Status CB_TextDetector_detect(CB_TextDetector *detector, const CB_Image *image,
                                            const CB_TextDetectorOptions *options, CB_Cancellation *cancellation,
                                            CB_TextBox **out_boxes, size_t *out_count) {
    CB_TRY
    CB_REQUIRE(detector != nullptr && image != nullptr && options != nullptr && out_boxes != nullptr &&
                   out_count != nullptr,
               "CB_TextDetector_detect: NULL argument");
    CB_REQUIRE(options->short_side >= 32 && options->short_side <= 4096,
               "CB_TextDetector_detect: short_side must be 32...4096");
    CB_REQUIRE(options->max_long_side == 0 || (options->max_long_side >= 32 && options->max_long_side <= 8192),
               "CB_TextDetector_detect: max_long_side must be 0 or 32...8192");
    CB_REQUIRE(options->binary_threshold > 0 && options->binary_threshold < 1 && options->box_threshold >= 0 &&
                   options->box_threshold < 1 && options->unclip_ratio >= 0 && options->unclip_ratio <= 4,
               "CB_TextDetector_detect: thresholds must be in (0, 1), unclip_ratio in [0, 4]");
    CB_REQUIRE(options->max_input_pixels == 0 || options->max_input_pixels >= 32 * 32,
               "CB_TextDetector_detect: max_input_pixels must be 0 or at least 1024");
    *out_boxes = nullptr;
    *out_count = 0;
    // Found on the upright picture (the network was trained on upright text), reported in the stored one's pixels
    // with the corners in reading order, so that a crop cut from the stored picture reads upright.
    const cbridge::Orientation &orientation = image->orientation;
    const cv::Mat unpadded = orientation.upright(image->bgr());
    const int imageWidth = unpadded.cols, imageHeight = unpadded.rows;
    if (imageWidth < 8 || imageHeight < 8) {
        return CB_OK;
    }
    // A close crop is a word or a line cut out, whose ink touches its edges. DB finds text by the ground around it,
    // so such a picture gets a margin of its short side, its edge pixels repeated (ICDAR 2015's 149 dev word crops:
    // 22 read exactly without it, 44 with it; a white margin read 42, and a margin around 720p photos lost them
    // precision).
    const int pad = CB_TextDetector_close_crop_margin(imageWidth, imageHeight, options);
    cv::Mat upright = unpadded;  // a header: a photo is not copied
    if (pad > 0) {
        cv::copyMakeBorder(unpadded, upright, pad, pad, pad, pad, cv::BORDER_REPLICATE);
    }
    const int width = upright.cols, height = upright.rows;
    const cv::Size size = inputSize(width, height, options->short_side, options->max_long_side);
    const cv::Mat probability =
        probabilityMap(*detector, upright, size, options->max_input_pixels, options->keeps_network != 0, cancellation);
    const auto contours = regionsAbove(probability, options->binary_threshold);
    std::vector<CB_TextBox> boxes;
    for (size_t index = 0; index < std::min(contours.size(), maxCandidates); ++index) {
        std::optional<CB_TextBox> box = textBox(contours[index], probability, *options, upright.size());
        if (box) boxes.push_back(*box);
    }
    // A close crop in which DB finds no text (no box at least `min_height` tall) is itself the line: a word cut out so
    // tightly that even the margin leaves DB no ground to find it by, or so small that its box is lower than that. It
    // is read whole (ICDAR 2015's 149 dev word crops: nothing was read in 40 of them without this, in 14 with it; 83
    // read exactly without it, 99 with it).
    if (pad > 0 && boxes.empty()) {
        CB_TextBox whole{};
        whole.quad = cbridge::quadOf(cv::Rect2f(float(pad), float(pad), float(imageWidth), float(imageHeight)));
        boxes.push_back(whole);
    }
    for (CB_TextBox &box : boxes) {
        for (int corner = 0; corner < 4; ++corner) {
            // Out of the margin, back onto the picture.
            box.quad.x[corner] = std::clamp(box.quad.x[corner] - float(pad), 0.0f, float(imageWidth));
            box.quad.y[corner] = std::clamp(box.quad.y[corner] - float(pad), 0.0f, float(imageHeight));
            const cv::Point2f point = orientation.toStored(cv::Point2f(box.quad.x[corner], box.quad.y[corner]),
                                                           cv::Size(image->width(), image->height()));
            box.quad.x[corner] = point.x;
            box.quad.y[corner] = point.y;
        }
    }
    return handOver(boxes, out_boxes, out_count);
    CB_CATCH
}

extern "C" void CB_TextBoxes_free(CB_TextBox *boxes) { std::free(boxes); }

extern "C" int CB_TextDetector_close_crop_margin(int width, int height, const CB_TextDetectorOptions *options) {
    // A picture whose short side is under a quarter of the network's is a cut-out word or line: ICDAR 2015's word
    // crops are 13 to 157 pixels on their short side, against 720 for its photos; a 640 x 360 photo is a scene.
    const int shortSide = std::min(width, height);
    return options != nullptr && shortSide > 0 && 4 * shortSide < options->short_side ? shortSide : 0;
}

extern "C" CB_TextDetectorOptions CB_TextDetectorOptions_default(void) {
    CB_TextDetectorOptions options;
    options.short_side = 736;
    options.max_long_side = 2560;
    options.binary_threshold = 0.3f;
    options.box_threshold = 0.5f;
    options.unclip_ratio = 1.6f;
    options.min_height = 0;
    options.keeps_network = 0;
    options.max_input_pixels = 0;
    return options;
}
