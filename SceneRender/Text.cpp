// Text lines rendered with a real TrueType font through cv::freetype (FreeType + HarfBuzz).
#include "Internal.hpp"

#include <opencv2/freetype.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <memory>

using scenerender::fail;

struct SR_Font {
    cv::Ptr<cv::freetype::FreeType2> engine;
};

namespace {

struct Ink {
    cv::Mat alpha;  // CV_8U coverage of the ink box only
};

/// Renders white-on-black into a scratch image and crops it to the pixels the glyphs touch: FreeType's
/// advance box (getTextSize) includes side bearings and line gap, which would not be a tight ground truth.
Ink renderInk(SR_Font &font, const char *text, int pixelHeight) {
    int baseline = 0;
    const cv::Size advance = font.engine->getTextSize(text, pixelHeight, -1, &baseline);
    // One font height of margin on every side holds accents, descenders and negative bearings.
    cv::Mat scratch(3 * pixelHeight + advance.height, advance.width + 2 * pixelHeight, CV_8UC3, cv::Scalar::all(0));
    font.engine->putText(scratch, text, cv::Point(pixelHeight, 2 * pixelHeight), pixelHeight, cv::Scalar::all(255), -1,
                         cv::LINE_AA, true);
    // cv::freetype draws into 3- or 4-channel images only; one channel of white ink is the coverage.
    cv::Mat coverage;
    cv::extractChannel(scratch, coverage, 0);
    const cv::Rect box = cv::boundingRect(coverage);
    Ink ink;
    ink.alpha = box.empty() ? cv::Mat(0, 0, CV_8U) : coverage(box).clone();
    return ink;
}

}  // namespace

extern "C" SR_Status SR_Font_new(const char *path, SR_Font **out_font) {
    SR_TRY
    SR_REQUIRE(out_font != nullptr && path != nullptr && *path != '\0', "SR_Font_new: NULL argument or empty path");
    *out_font = nullptr;
    auto font = std::make_unique<SR_Font>();
    font->engine = cv::freetype::createFreeType2();
    try {
        font->engine->loadFontData(path, 0);
    } catch (const cv::Exception &error) {
        return fail(SR_IO_FAILED, std::string("cannot load font '") + path + "': " + error.err);
    }
    *out_font = font.release();
    return SR_OK;
    SR_CATCH
}

extern "C" void SR_Font_delete(SR_Font *font) { delete font; }

extern "C" SR_Status SR_Font_measure(SR_Font *font, const char *utf8_text, int pixel_height, int *out_width,
                                     int *out_height) {
    SR_TRY
    SR_REQUIRE(font != nullptr && utf8_text != nullptr && out_width != nullptr && out_height != nullptr,
               "SR_Font_measure: NULL argument");
    SR_REQUIRE(pixel_height >= 4 && pixel_height <= 1000, "SR_Font_measure: pixel_height must be in 4...1000");
    const Ink ink = renderInk(*font, utf8_text, pixel_height);
    *out_width = ink.alpha.cols;
    *out_height = ink.alpha.rows;
    return SR_OK;
    SR_CATCH
}

extern "C" SR_Status SR_Canvas_draw_text(SR_Canvas *canvas, SR_Font *font, const char *utf8_text, int pixel_height,
                                         SR_Color color, float left, float top, SR_Quad *out_bounds) {
    SR_TRY
    SR_REQUIRE(canvas != nullptr && font != nullptr && utf8_text != nullptr, "SR_Canvas_draw_text: NULL argument");
    SR_REQUIRE(pixel_height >= 4 && pixel_height <= 1000, "SR_Canvas_draw_text: pixel_height must be in 4...1000");
    SR_REQUIRE(std::isfinite(left) && std::isfinite(top) && std::fabs(left) < 1e6f && std::fabs(top) < 1e6f,
               "SR_Canvas_draw_text: position out of range");
    const Ink ink = renderInk(*font, utf8_text, pixel_height);
    const cv::Rect placed(static_cast<int>(std::lround(left)), static_cast<int>(std::lround(top)), ink.alpha.cols,
                          ink.alpha.rows);
    if (out_bounds != nullptr) {
        const float x0 = float(placed.x), y0 = float(placed.y);
        const float x1 = float(placed.x + placed.width), y1 = float(placed.y + placed.height);
        *out_bounds = SR_Quad{{x0, x1, x1, x0}, {y0, y0, y1, y1}};
    }
    cv::Mat &pixels = canvas->pixels;
    const cv::Rect area = placed & cv::Rect(0, 0, pixels.cols, pixels.rows);
    if (area.empty()) {
        return SR_OK;
    }
    // Alpha-blend the anti-aliased coverage so the glyph edges sit on whatever texture is underneath.
    const int ink3[3] = {color.blue, color.green, color.red};
    for (int y = area.y; y < area.y + area.height; ++y) {
        const auto *alpha = ink.alpha.ptr<uint8_t>(y - placed.y);
        auto *row = pixels.ptr<uint8_t>(y);
        for (int x = area.x; x < area.x + area.width; ++x) {
            const int a = alpha[x - placed.x];
            if (a == 0) {
                continue;
            }
            for (int channel = 0; channel < 3; ++channel) {
                uint8_t &value = row[3 * x + channel];
                value = static_cast<uint8_t>((value * (255 - a) + ink3[channel] * a + 127) / 255);
            }
        }
    }
    return SR_OK;
    SR_CATCH
}
