#include "Internal.hpp"

#include <opencv2/imgproc.hpp>
#include <tesseract/baseapi.h>
#include <tesseract/resultiterator.h>

#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <sstream>

struct CB_OCR {
    tesseract::TessBaseAPI api;
};

namespace {

const char *const defaultTessdata = "/usr/share/tesseract-ocr/5/tessdata";

/// The languages Debian 12 packages trained data for, as Tesseract names them: tesseract-ocr-<name> with `_` as
/// `-` (chi_sim is in tesseract-ocr-chi-sim), from `apt-cache search '^tesseract-ocr-'` less the script packages
/// (their data is `script/Latin`, no language name) and tesseract-ocr-all. A missing language not among them is
/// named unknown: there is no tesseract-ocr-english to install.
const std::array<const char *, 124> debianLanguages = {
    "afr",      "amh",     "ara", "asm",      "aze", "aze_cyrl", "bel",          "ben",      "bod",          "bos",
    "bre",      "bul",     "cat", "ceb",      "ces", "chi_sim",  "chi_sim_vert", "chi_tra",  "chi_tra_vert", "chr",
    "cos",      "cym",     "dan", "deu",      "div", "dzo",      "ell",          "eng",      "enm",          "epo",
    "est",      "eus",     "fao", "fas",      "fil", "fin",      "fra",          "frk",      "frm",          "fry",
    "gla",      "gle",     "glg", "grc",      "guj", "hat",      "heb",          "hin",      "hrv",          "hun",
    "hye",      "iku",     "ind", "isl",      "ita", "ita_old",  "jav",          "jpn",      "jpn_vert",     "kan",
    "kat",      "kat_old", "kaz", "khm",      "kir", "kmr",      "kor",          "kor_vert", "lao",          "lat",
    "lav",      "lit",     "ltz", "mal",      "mar", "mkd",      "mlt",          "mon",      "mri",          "msa",
    "mya",      "nep",     "nld", "nor",      "oci", "ori",      "osd",          "pan",      "pol",          "por",
    "pus",      "que",     "ron", "rus",      "san", "sin",      "slk",          "slv",      "snd",          "spa",
    "spa_old",  "sqi",     "srp", "srp_latn", "sun", "swa",      "swe",          "syr",      "tam",          "tat",
    "tel",      "tgk",     "tha", "tir",      "ton", "tur",      "uig",          "ukr",      "urd",          "uzb",
    "uzb_cyrl", "vie",     "yid", "yor",
};

/// Why `language` is missing: its Debian package when Debian has one, else that no language of that name exists.
std::string missingLanguage(const std::string &language, const std::string &file) {
    for (const char *known : debianLanguages) {
        if (language == known) {
            // Debian's package names are lower case with hyphens: chi_sim is in tesseract-ocr-chi-sim.
            std::string package = language;
            for (char &c : package) {
                c = c == '_' ? '-' : c;
            }
            return "Tesseract language '" + language + "' is not installed (" + file +
                   " not found; Debian: apt install tesseract-ocr-" + package + ")";
        }
    }
    return "unknown language '" + language + "': no trained data of that name is installed (" + file +
           " not found) and no Debian package has it; give Tesseract's name (eng, deu, chi_sim) or a BCP-47 tag "
           "(en-US, de, zh-Hans)";
}

CB_Quad quadOf(int left, int top, int right, int bottom, double scale, int offsetX, int offsetY) {
    CB_Quad quad;
    const float x0 = float(left / scale + offsetX), x1 = float(right / scale + offsetX);
    const float y0 = float(top / scale + offsetY), y1 = float(bottom / scale + offsetY);
    quad.x[0] = x0, quad.y[0] = y0;
    quad.x[1] = x1, quad.y[1] = y0;
    quad.x[2] = x1, quad.y[2] = y1;
    quad.x[3] = x0, quad.y[3] = y1;
    return quad;
}

std::string trimmed(const char *text) {
    std::string line = text == nullptr ? "" : text;
    const auto end = line.find_last_not_of(" \n\r\t");
    return end == std::string::npos ? "" : line.substr(0, end + 1);
}

/// Owns lines and their words while they are collected, so an exception half-way leaks nothing.
struct LineList {
    std::vector<CB_TextLine> lines;
    std::vector<std::vector<CB_TextWord>> words;
    ~LineList() {
        for (auto &line : lines) std::free(line.text);
        for (auto &lineWords : words)
            for (auto &word : lineWords) std::free(word.text);
    }
};

/// Tesseract's lines of the last recognition, into `collected` (each with an empty word list); `toImage` maps a box
/// of the read image's pixels (left, top, right, bottom) to a quad in the caller's image. Returns each line's box
/// in the read image's pixels, to give the words to their lines.
template <typename ToImage>
std::vector<cv::Rect> collectLines(tesseract::TessBaseAPI &api, const ToImage &toImage, LineList &collected) {
    std::vector<cv::Rect> lineBoxes;
    std::unique_ptr<tesseract::ResultIterator> lines(api.GetIterator());
    if (!lines) {
        return lineBoxes;
    }
    do {
        if (lines->Empty(tesseract::RIL_TEXTLINE)) {
            continue;
        }
        std::unique_ptr<char[]> text(lines->GetUTF8Text(tesseract::RIL_TEXTLINE));
        const std::string line = trimmed(text.get());
        int left, top, right, bottom;
        if (line.empty() || !lines->BoundingBox(tesseract::RIL_TEXTLINE, &left, &top, &right, &bottom)) {
            continue;
        }
        CB_TextLine entry{};
        entry.confidence = lines->Confidence(tesseract::RIL_TEXTLINE);
        entry.quad = toImage(left, top, right, bottom);
        lineBoxes.emplace_back(left, top, right - left, bottom - top);
        collected.lines.push_back(entry);
        collected.words.emplace_back();
        collected.lines.back().text = cbridge::copyString(line);
    } while (lines->Next(tesseract::RIL_TEXTLINE));
    return lineBoxes;
}

/// The index of the first of `boxes` that holds the point (edges included), or `boxes.size()` when none does.
size_t boxHolding(const std::vector<cv::Rect> &boxes, double x, double y) {
    for (size_t index = 0; index < boxes.size(); ++index) {
        const cv::Rect &box = boxes[index];
        if (x >= box.x && x <= box.x + box.width && y >= box.y && y <= box.y + box.height) {
            return index;
        }
    }
    return boxes.size();
}

/// Tesseract's words of the last recognition, in a second pass over its results: each goes to the word list of the
/// line whose box (`lineBoxes`, as collectLines returned them) holds its centre; a word no line holds is dropped.
/// Returns, per line, the box around its words in the read image's pixels (empty when it has none).
template <typename ToImage>
std::vector<cv::Rect> collectWords(tesseract::TessBaseAPI &api, const ToImage &toImage,
                                   const std::vector<cv::Rect> &lineBoxes, LineList &collected) {
    std::unique_ptr<tesseract::ResultIterator> words(api.GetIterator());
    std::vector<cv::Rect> wordBoxes(collected.lines.size());
    if (!words || collected.lines.empty()) {
        return wordBoxes;
    }
    do {
        std::unique_ptr<char[]> text(words->GetUTF8Text(tesseract::RIL_WORD));
        const std::string word = trimmed(text.get());
        int left, top, right, bottom;
        if (word.empty() || !words->BoundingBox(tesseract::RIL_WORD, &left, &top, &right, &bottom)) {
            continue;
        }
        const size_t index = boxHolding(lineBoxes, (left + right) / 2.0, (top + bottom) / 2.0);
        if (index == lineBoxes.size()) {
            continue;
        }
        const float confidence = words->Confidence(tesseract::RIL_WORD);
        collected.words[index].push_back(CB_TextWord{nullptr, confidence, toImage(left, top, right, bottom)});
        collected.words[index].back().text = cbridge::copyString(word);
        const cv::Rect wordBox(left, top, right - left, bottom - top);
        wordBoxes[index] = wordBoxes[index].empty() ? wordBox : (wordBoxes[index] | wordBox);
    } while (words->Next(tesseract::RIL_WORD));
    return wordBoxes;
}

/// Hands the collected lines and their words over to one calloc'ed array for the caller (CB_TextLines_free frees
/// it); nothing when no line was read.
CB_Status handOver(LineList &collected, CB_TextLine **out_lines, size_t *out_count) {
    if (collected.lines.empty()) {
        return CB_OK;
    }
    auto *array = static_cast<CB_TextLine *>(std::calloc(collected.lines.size(), sizeof(CB_TextLine)));
    CB_REQUIRE(array != nullptr, "out of memory");
    for (size_t index = 0; index < collected.lines.size(); ++index) {
        auto &lineWords = collected.words[index];
        array[index] = collected.lines[index];
        array[index].words =
            static_cast<CB_TextWord *>(std::calloc(std::max<size_t>(lineWords.size(), 1), sizeof(CB_TextWord)));
        if (array[index].words == nullptr) {
            CB_TextLines_free(array, index);
            throw std::bad_alloc();
        }
        std::copy(lineWords.begin(), lineWords.end(), array[index].words);
        array[index].word_count = lineWords.size();
        collected.lines[index].text = nullptr;  // now owned by the array
        lineWords.clear();
    }
    *out_lines = array;
    *out_count = collected.lines.size();
    return CB_OK;
}

/// Reads `gray` (8-bit grey, or RGB) with Tesseract in `mode` into a new line array; `toImage` maps a box of
/// `gray`'s pixels (left, top, right, bottom) to a quad in the caller's image. `lineAroundWords`: a line's box is
/// the one around its words' boxes, not Tesseract's line box (in PSM 7 that is most of the crop, margins and all).
template <typename ToImage>
CB_Status recognizeGray(tesseract::TessBaseAPI &api, const cv::Mat &gray, int mode, const ToImage &toImage,
                        bool lineAroundWords, CB_TextLine **out_lines, size_t *out_count) {
    api.SetPageSegMode(static_cast<tesseract::PageSegMode>(mode));
    api.SetImage(gray.data, gray.cols, gray.rows, gray.channels(), static_cast<int>(gray.step));
    if (api.Recognize(nullptr) != 0) {
        return cbridge::fail(CB_ENGINE_FAILED, "Tesseract could not recognise the image");
    }
    LineList collected;
    const std::vector<cv::Rect> lineBoxes = collectLines(api, toImage, collected);
    const std::vector<cv::Rect> wordBoxes = collectWords(api, toImage, lineBoxes, collected);
    api.Clear();
    if (lineAroundWords) {
        for (size_t index = 0; index < collected.lines.size(); ++index) {
            const cv::Rect &box = wordBoxes[index];
            if (!box.empty()) {
                collected.lines[index].quad = toImage(box.x, box.y, box.x + box.width, box.y + box.height);
            }
        }
    }
    return handOver(collected, out_lines, out_count);
}

/// The part of `image`'s upright grey picture CB_OCR_recognize reads: `rect` (in the stored picture's pixels; all
/// of it when null) turned upright and clipped to the picture, in single-line mode cut to the label the line is
/// printed on. None when `rect` leaves less than 2 pixels either way.
std::optional<cv::Rect> readingArea(const CB_Image &image, const CB_Rect *rect, int mode) {
    const cv::Mat &upright = image.uprightGray();
    cv::Rect area(0, 0, upright.cols, upright.rows);
    if (rect != nullptr) {
        const cv::Rect2f asked(float(rect->x), float(rect->y), float(rect->width), float(rect->height));
        area = cv::Rect(image.orientation.toUpright(asked, cv::Size(image.width(), image.height()))) & area;
        if (area.width < 2 || area.height < 2) {
            return std::nullopt;
        }
    }
    if (mode == CB_PSM_SINGLE_LINE) {
        const cv::Rect label = cbridge::labelAround(upright(area));
        area = cv::Rect(area.x + label.x, area.y + label.y, label.width, label.height);
    }
    return area;
}

}  // namespace

extern "C" const char *CB_OCR_tessdata_directory(void) {
    const char *prefix = std::getenv("TESSDATA_PREFIX");
    return prefix != nullptr && *prefix != '\0' ? prefix : defaultTessdata;
}

extern "C" CB_Status CB_OCR_new(const char *tessdata_path, const char *languages, CB_OCR **out_ocr) {
    CB_TRY
    CB_REQUIRE(languages != nullptr && *languages != '\0' && out_ocr != nullptr, "CB_OCR_new: no language");
    *out_ocr = nullptr;
    const std::string directory =
        tessdata_path != nullptr && *tessdata_path != '\0' ? tessdata_path : CB_OCR_tessdata_directory();
    // Check each language first: Tesseract's own failure is a few lines on stderr and no reason.
    std::stringstream list(languages);
    std::string language;
    while (std::getline(list, language, '+')) {
        if (language.empty() || language.find('/') != std::string::npos) {
            return cbridge::fail(CB_INVALID_ARGUMENT, "invalid language list '" + std::string(languages) + "'");
        }
        const std::string file = directory + "/" + language + ".traineddata";
        if (!cbridge::regularFileSize(file)) {
            return cbridge::fail(CB_MODEL_MISSING, missingLanguage(language, file));
        }
    }
    auto ocr = std::make_unique<CB_OCR>();
    // Silence Tesseract's own stderr chatter (e.g. "Estimating resolution"): errors are reported here.
    std::vector<std::string> names = {"debug_file"};
    std::vector<std::string> values = {"/dev/null"};
    const int failed =
        ocr->api.Init(directory.c_str(), languages, tesseract::OEM_LSTM_ONLY, nullptr, 0, &names, &values, false);
    if (failed != 0) {
        return cbridge::fail(CB_MODEL_MISSING,
                             "Tesseract could not load '" + std::string(languages) + "' from " + directory);
    }
    ocr->api.SetVariable("user_defined_dpi", "300");
    *out_ocr = ocr.release();
    return CB_OK;
    CB_CATCH
}

// libgomp's, there when Tesseract was built with OpenMP (Debian's is) and so loaded with it; weak, so that
// CBridge links without naming libgomp itself.
extern "C" int omp_get_thread_limit(void) __attribute__((weak));

extern "C" int CB_OCR_thread_limit(void) { return omp_get_thread_limit != nullptr ? omp_get_thread_limit() : 1; }

extern "C" void CB_OCR_delete(CB_OCR *ocr) {
    if (ocr != nullptr) {
        ocr->api.End();
        delete ocr;
    }
}

extern "C" CB_Status CB_OCR_recognize(CB_OCR *ocr, const CB_Image *image, const CB_Rect *rect, int mode, float scale,
                                      CB_TextLine **out_lines, size_t *out_count) {
    CB_TRY
    CB_REQUIRE(ocr != nullptr && image != nullptr && out_lines != nullptr && out_count != nullptr,
               "CB_OCR_recognize: NULL argument");
    CB_REQUIRE(scale > 0 && scale <= 8, "CB_OCR_recognize: scale must be in (0, 8]");
    // An int, not the enum, crosses the boundary: a caller may pass any value, and loading an
    // out-of-range enum is itself undefined behaviour (found by fuzz_raw_frame).
    CB_REQUIRE(mode == CB_PSM_AUTO || mode == CB_PSM_SINGLE_LINE || mode == CB_PSM_SPARSE,
               "CB_OCR_recognize: unknown page segmentation mode");
    *out_lines = nullptr;
    *out_count = 0;
    // Read on the upright picture (Tesseract reads upright lines only); rectangles and quads are the stored
    // picture's, turned on the way in and out.
    const cbridge::Orientation &orientation = image->orientation;
    const cv::Size stored(image->width(), image->height());
    const std::optional<cv::Rect> found = readingArea(*image, rect, mode);
    if (!found) {
        return CB_OK;
    }
    const cv::Rect area = *found;
    cv::Mat gray = image->uprightGray()(area);
    if (scale != 1) {
        gray = cbridge::resized(gray, scale, scale > 1 ? cv::INTER_CUBIC : cv::INTER_AREA);
    }
    const auto toImage = [&](int left, int top, int right, int bottom) {
        const CB_Quad quad = quadOf(left, top, right, bottom, scale, area.x, area.y);
        if (orientation.isUpright()) {
            return quad;
        }
        const cv::Rect2f box(quad.x[0], quad.y[0], quad.x[2] - quad.x[0], quad.y[2] - quad.y[0]);
        return cbridge::quadOf(orientation.toStored(box, stored));
    };
    return recognizeGray(ocr->api, gray, mode, toImage, false, out_lines, out_count);
    CB_CATCH
}

extern "C" CB_Status CB_OCR_recognize_quad(CB_OCR *ocr, const CB_Image *image, const CB_Quad *quad, float height,
                                           CB_TextLine **out_lines, size_t *out_count) {
    CB_TRY
    CB_REQUIRE(ocr != nullptr && image != nullptr && quad != nullptr && out_lines != nullptr && out_count != nullptr,
               "CB_OCR_recognize_quad: NULL argument");
    CB_REQUIRE(height == 0 || (height >= 8 && height <= 400), "CB_OCR_recognize_quad: height must be 0 or 8...400");
    *out_lines = nullptr;
    *out_count = 0;
    for (int corner = 0; corner < 4; ++corner) {
        CB_REQUIRE(std::isfinite(quad->x[corner]) && std::isfinite(quad->y[corner]),
                   "CB_OCR_recognize_quad: a corner is not a finite number");
    }
    const cbridge::LineCrop crop = cbridge::cutLine(*image, *quad, height);
    if (crop.pixels.empty()) {
        return CB_OK;
    }
    // In colour: Tesseract's Otsu thresholding picks the channel that separates ink from ground best, and a sign's
    // coloured letters are often clearer in one channel than in grey (ICDAR 2015 dev: word recall 0.463 from
    // colour crops against 0.437 from grey ones, precision 0.778 against 0.765).
    cv::Mat rgb;
    cv::cvtColor(crop.pixels, rgb, cv::COLOR_BGR2RGB);
    const auto mapBack = [&](int left, int top, int right, int bottom) {
        return crop.toImage(left, top, right, bottom);
    };
    return recognizeGray(ocr->api, rgb, CB_PSM_SINGLE_LINE, mapBack, true, out_lines, out_count);
    CB_CATCH
}

extern "C" void CB_TextLines_free(CB_TextLine *lines, size_t count) {
    if (lines == nullptr) {
        return;
    }
    for (size_t index = 0; index < count; ++index) {
        std::free(lines[index].text);
        for (size_t word = 0; word < lines[index].word_count; ++word) {
            std::free(lines[index].words[word].text);
        }
        std::free(lines[index].words);
    }
    std::free(lines);
}
