// Canvases, paper textures, stray lines, occluders and the camera effects (blur, sensor noise).
#include "Internal.hpp"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

using scenerender::fail;

namespace {

constexpr int maximumSide = 16384;

/// The part of `rect` inside the canvas; empty when they do not meet.
cv::Rect clipped(const cv::Mat &pixels, const cv::Rect &rect) {
    return rect & cv::Rect(0, 0, pixels.cols, pixels.rows);
}

}  // namespace

extern "C" SR_Status SR_Canvas_new(int width, int height, SR_Color background, SR_Canvas **out_canvas) {
    SR_TRY
    SR_REQUIRE(out_canvas != nullptr, "SR_Canvas_new: out_canvas is NULL");
    *out_canvas = nullptr;
    SR_REQUIRE(width >= 1 && width <= maximumSide && height >= 1 && height <= maximumSide,
               "SR_Canvas_new: width and height must be in 1...16384");
    auto canvas = std::make_unique<SR_Canvas>();
    canvas->pixels = cv::Mat(height, width, CV_8UC3, scenerender::scalar(background));
    *out_canvas = canvas.release();
    return SR_OK;
    SR_CATCH
}

extern "C" SR_Status SR_Canvas_clone(const SR_Canvas *source, SR_Canvas **out_canvas) {
    SR_TRY
    SR_REQUIRE(source != nullptr && out_canvas != nullptr, "SR_Canvas_clone: NULL argument");
    *out_canvas = nullptr;
    auto canvas = std::make_unique<SR_Canvas>();
    canvas->pixels = source->pixels.clone();
    *out_canvas = canvas.release();
    return SR_OK;
    SR_CATCH
}

extern "C" SR_Status SR_Canvas_copy_from(SR_Canvas *destination, const SR_Canvas *source) {
    SR_TRY
    SR_REQUIRE(destination != nullptr && source != nullptr, "SR_Canvas_copy_from: NULL canvas");
    SR_REQUIRE(destination->pixels.size() == source->pixels.size(), "SR_Canvas_copy_from: sizes differ");
    source->pixels.copyTo(destination->pixels);
    return SR_OK;
    SR_CATCH
}

extern "C" void SR_Canvas_delete(SR_Canvas *canvas) { delete canvas; }

extern "C" int SR_Canvas_width(const SR_Canvas *canvas) { return canvas == nullptr ? 0 : canvas->pixels.cols; }

extern "C" int SR_Canvas_height(const SR_Canvas *canvas) { return canvas == nullptr ? 0 : canvas->pixels.rows; }

extern "C" SR_Status SR_Canvas_copy_pixels(const SR_Canvas *canvas, uint8_t *out, size_t capacity) {
    SR_TRY
    SR_REQUIRE(canvas != nullptr && out != nullptr, "SR_Canvas_copy_pixels: NULL argument");
    const cv::Mat &pixels = canvas->pixels;
    const size_t rowBytes = static_cast<size_t>(pixels.cols) * 3;
    SR_REQUIRE(capacity >= rowBytes * static_cast<size_t>(pixels.rows), "SR_Canvas_copy_pixels: buffer too small");
    for (int row = 0; row < pixels.rows; ++row) {
        std::memcpy(out + rowBytes * static_cast<size_t>(row), pixels.ptr(row), rowBytes);
    }
    return SR_OK;
    SR_CATCH
}

extern "C" SR_Status SR_Canvas_write(const SR_Canvas *canvas, const char *path) {
    SR_TRY
    SR_REQUIRE(canvas != nullptr && path != nullptr && *path != '\0', "SR_Canvas_write: NULL canvas or empty path");
    // imwrite throws for an unknown extension and returns false for an unwritable path.
    bool written = false;
    try {
        written = cv::imwrite(path, canvas->pixels);
    } catch (const cv::Exception &error) {
        return fail(SR_IO_FAILED, std::string("cannot write image '") + path + "': " + error.err);
    }
    if (!written) {
        return fail(SR_IO_FAILED, std::string("cannot write image '") + path + "'");
    }
    return SR_OK;
    SR_CATCH
}

extern "C" SR_Status SR_Canvas_draw_texture(SR_Canvas *canvas, const SR_Rect *rect, const SR_Texture *texture) {
    SR_TRY
    SR_REQUIRE(canvas != nullptr && texture != nullptr, "SR_Canvas_draw_texture: NULL argument");
    SR_REQUIRE(texture->contrast >= 0 && texture->contrast <= 128,
               "SR_Canvas_draw_texture: contrast must be in 0...128");
    SR_REQUIRE(texture->blotch_count >= 0 && texture->blotch_count <= 10000,
               "SR_Canvas_draw_texture: blotch_count must be in 0...10000");
    cv::Mat &pixels = canvas->pixels;
    const cv::Rect whole(0, 0, pixels.cols, pixels.rows);
    const cv::Rect area =
        rect == nullptr ? whole : clipped(pixels, cv::Rect(rect->x, rect->y, rect->width, rect->height));
    if (area.empty()) {
        return SR_OK;
    }
    cv::RNG rng = scenerender::makeRNG(texture->seed);
    const float contrast = static_cast<float>(texture->contrast);

    // Blotches are drawn on a coarse grid and upsampled: that makes them soft at a fraction of the
    // cost of blurring a full-size layer with a large kernel.
    constexpr int coarse = 8;
    const cv::Size small(std::max(2, area.width / coarse), std::max(2, area.height / coarse));
    cv::Mat layer(small, CV_32F, cv::Scalar(0));
    const float angle = rng.uniform(0.f, static_cast<float>(2 * CV_PI));
    const float dx = std::cos(angle) / small.width, dy = std::sin(angle) / small.height;
    for (int y = 0; y < small.height; ++y) {
        auto *row = layer.ptr<float>(y);
        for (int x = 0; x < small.width; ++x) {
            row[x] = 0.5f * contrast * ((x - small.width / 2.f) * dx + (y - small.height / 2.f) * dy);
        }
    }
    for (int index = 0; index < texture->blotch_count; ++index) {
        const cv::Point centre(rng.uniform(0, small.width), rng.uniform(0, small.height));
        const int radius = std::max(1, std::min(small.width, small.height) / 6);
        const cv::Size axes(rng.uniform(1, radius + 1), rng.uniform(1, radius + 1));
        const double value = rng.uniform(-0.6, 0.6) * contrast;
        cv::ellipse(layer, centre, axes, rng.uniform(0., 180.), 0, 360, cv::Scalar(value), cv::FILLED);
    }
    cv::GaussianBlur(layer, layer, cv::Size(), 1.5);
    cv::Mat smooth;
    cv::resize(layer, smooth, area.size(), 0, 0, cv::INTER_CUBIC);
    // A faint per-pixel grain, like paper fibres; fixed by the seed, unlike sensor noise.
    cv::Mat grain(area.size(), CV_32F);
    rng.fill(grain, cv::RNG::NORMAL, 0., std::max(0.5, contrast / 10.));
    smooth += grain;

    cv::Mat target = pixels(area);
    const float base[3] = {static_cast<float>(texture->base.blue), static_cast<float>(texture->base.green),
                           static_cast<float>(texture->base.red)};
    for (int y = 0; y < area.height; ++y) {
        const auto *offset = smooth.ptr<float>(y);
        auto *row = target.ptr<uint8_t>(y);
        for (int x = 0; x < area.width; ++x) {
            for (int channel = 0; channel < 3; ++channel) {
                row[3 * x + channel] = cv::saturate_cast<uint8_t>(base[channel] + offset[x]);
            }
        }
    }
    return SR_OK;
    SR_CATCH
}

extern "C" SR_Status SR_Canvas_draw_stray_lines(SR_Canvas *canvas, int count, SR_Color color, uint64_t seed) {
    SR_TRY
    SR_REQUIRE(canvas != nullptr, "SR_Canvas_draw_stray_lines: NULL canvas");
    SR_REQUIRE(count >= 0 && count <= 100000, "SR_Canvas_draw_stray_lines: count must be in 0...100000");
    cv::Mat &pixels = canvas->pixels;
    cv::RNG rng = scenerender::makeRNG(seed);
    const int longest = std::max(pixels.cols, pixels.rows);
    for (int index = 0; index < count; ++index) {
        const cv::Point2d start(rng.uniform(0., static_cast<double>(pixels.cols)),
                                rng.uniform(0., static_cast<double>(pixels.rows)));
        const double angle = rng.uniform(0., CV_PI);
        const double length = rng.uniform(0.05, 0.5) * longest;
        const cv::Point end(cvRound(start.x + length * std::cos(angle)), cvRound(start.y + length * std::sin(angle)));
        const int shade = rng.uniform(-40, 41);
        const cv::Scalar jittered(cv::saturate_cast<uint8_t>(color.blue + shade),
                                  cv::saturate_cast<uint8_t>(color.green + shade),
                                  cv::saturate_cast<uint8_t>(color.red + shade));
        cv::line(pixels, cv::Point(cvRound(start.x), cvRound(start.y)), end, jittered, rng.uniform(1, 3), cv::LINE_AA);
    }
    return SR_OK;
    SR_CATCH
}

extern "C" SR_Status SR_Canvas_fill_rect(SR_Canvas *canvas, SR_Rect rect, SR_Color color) {
    SR_TRY
    SR_REQUIRE(canvas != nullptr, "SR_Canvas_fill_rect: NULL canvas");
    const cv::Rect area = clipped(canvas->pixels, cv::Rect(rect.x, rect.y, rect.width, rect.height));
    if (!area.empty()) {
        canvas->pixels(area).setTo(scenerender::scalar(color));
    }
    return SR_OK;
    SR_CATCH
}

extern "C" SR_Status SR_Canvas_blur(SR_Canvas *canvas, double sigma) {
    SR_TRY
    SR_REQUIRE(canvas != nullptr, "SR_Canvas_blur: NULL canvas");
    SR_REQUIRE(sigma >= 0 && sigma <= 100, "SR_Canvas_blur: sigma must be in 0...100");
    if (sigma > 0) {
        cv::GaussianBlur(canvas->pixels, canvas->pixels, cv::Size(), sigma, sigma, cv::BORDER_REPLICATE);
    }
    return SR_OK;
    SR_CATCH
}

extern "C" SR_Status SR_Canvas_add_noise(SR_Canvas *canvas, double sigma, uint64_t seed) {
    SR_TRY
    SR_REQUIRE(canvas != nullptr, "SR_Canvas_add_noise: NULL canvas");
    SR_REQUIRE(sigma >= 0 && sigma <= 255, "SR_Canvas_add_noise: sigma must be in 0...255");
    if (sigma > 0) {
        cv::RNG rng = scenerender::makeRNG(seed);
        cv::Mat noise(canvas->pixels.size(), CV_16SC3);
        rng.fill(noise, cv::RNG::NORMAL, 0., sigma);
        cv::add(canvas->pixels, noise, canvas->pixels, cv::noArray(), CV_8U);
    }
    return SR_OK;
    SR_CATCH
}
