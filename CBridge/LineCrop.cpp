#include "Internal.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace cbridge {

LineCrop cutLine(const CB_Image &image, const CB_Quad &quad, double height, double mostHeight) {
    std::array<cv::Point2f, 4> corners;
    for (int corner = 0; corner < 4; ++corner) {
        if (!std::isfinite(quad.x[corner]) || !std::isfinite(quad.y[corner])) {
            throw std::invalid_argument("a corner is not a finite number");
        }
        corners[corner] = {quad.x[corner], quad.y[corner]};
    }
    const auto length = [](cv::Point2f a, cv::Point2f b) { return std::hypot(a.x - b.x, a.y - b.y); };
    // As PaddleOCR cuts its crops (get_rotate_crop_image): the longer of each pair of opposite sides.
    const double width = std::max(length(corners[0], corners[1]), length(corners[3], corners[2]));
    const double tall = std::max(length(corners[0], corners[3]), length(corners[1], corners[2]));
    LineCrop crop;
    if (width < 2 || tall < 2 || width > 16384 || tall > 16384) {
        return crop;
    }
    const double shortSide = std::min(width, tall);
    const double scale = height > 0                                 ? height / shortSide
                         : mostHeight > 0 && shortSide > mostHeight ? mostHeight / shortSide
                                                                    : 1.0;
    const int cropWidth = std::max(2, int(std::lround(width * scale)));
    const int cropHeight = std::max(2, int(std::lround(tall * scale)));
    const std::array<cv::Point2f, 4> upright = {cv::Point2f(0, 0), cv::Point2f(float(cropWidth), 0),
                                                cv::Point2f(float(cropWidth), float(cropHeight)),
                                                cv::Point2f(0, float(cropHeight))};
    crop.toCrop = cv::getPerspectiveTransform(corners.data(), upright.data());
    crop.cutWidth = cropWidth;
    cv::warpPerspective(image.bgr(), crop.pixels, crop.toCrop, cv::Size(cropWidth, cropHeight), cv::INTER_CUBIC,
                        cv::BORDER_REPLICATE);
    // A box much taller than wide holds a line written downwards: turn it a quarter, as PaddleOCR does, so that it
    // reads left to right (np.rot90: counter-clockwise).
    crop.turned = cropHeight >= 1.5 * cropWidth;
    if (crop.turned) {
        cv::rotate(crop.pixels, crop.pixels, cv::ROTATE_90_COUNTERCLOCKWISE);
    }
    return crop;
}

CB_Quad LineCrop::toImage(int left, int top, int right, int bottom) const {
    std::vector<cv::Point2f> points = {cv::Point2f(float(left), float(top)), cv::Point2f(float(right), float(top)),
                                       cv::Point2f(float(right), float(bottom)),
                                       cv::Point2f(float(left), float(bottom))};
    if (turned) {
        // Counter-clockwise turn: turned (u, v) came from crop (cutWidth - v, u).
        for (auto &p : points) p = cv::Point2f(float(cutWidth) - p.y, p.x);
    }
    std::vector<cv::Point2f> mapped;
    cv::perspectiveTransform(points, mapped, toCrop.inv());
    CB_Quad result;
    for (int corner = 0; corner < 4; ++corner) {
        result.x[corner] = mapped[corner].x;
        result.y[corner] = mapped[corner].y;
    }
    return result;
}

}  // namespace cbridge
