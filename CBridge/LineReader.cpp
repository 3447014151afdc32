#include "Internal.hpp"
#include "OnnxRuntime.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

// PP-OCRv6 small's line recogniser (SVTR with a CTC head), run by ONNX Runtime (OnnxRuntime.hpp), as
// rapidocr-onnxruntime 1.4.4 runs PP-OCR's recognisers: a line scaled to 48 pixels tall, padded on the right to the
// network's width, gives one distribution over the characters for every 8 pixels across; the most probable character of
// each step, repeats merged and blanks dropped, is the transcript (CTC greedy decoding).
// Benchmarks/text-detector-study.md measured it against Tesseract on ICDAR 2015's crops (106 of 149 read exactly;
// PP-OCRv4's recogniser 90, Tesseract 48).

namespace {

/// The network's input: 48 pixels tall, padded to one of two widths (as OpenCV 4.6's dnn, which fixed a network's
/// shapes when it read it, ran it: the figures of Benchmarks/text-detector-study.md are at these).
constexpr int inputHeight = 48;
constexpr std::array<int, 2> inputWidths = {320, 640};

/// A word of the decoded line: its characters, the sum of their probabilities, and the steps it spans.
struct DecodedWord {
    std::string text;
    double probabilities;
    int characters;
    int firstStep, lastStep;
    /// Whether it was parted from the word before at a gap read as blank (`wordGapSpaceShare`), not at a space.
    bool partedAtGap = false;
};

/// The least probability of the space at a step decoded as blank, inside a word, that parts the word there. The
/// recogniser, trained on Chinese as much as on Latin text, runs words together where the gap between them is narrow
/// (`NORTHINDIA`, `GALAXYNote`, `BreadTalk` on ICDAR 2015's photos): the step in the gap is most likely a blank, and
/// the space is second. Inside a word the space mostly stays far below this (a receipt's monospaced `PETALING` was
/// parted). ICDAR 2015's 48 dev photos as stills, word recall / precision on fold 0 and fold 1: never parted 0.609 /
/// 0.875 and 0.655 / 0.764; at 0.3, 0.617 / 0.890 and 0.655 / 0.764; at any share from 0.001 to 0.03, the same words
/// parted, 0.643 / 0.892 and 0.698 / 0.774-0.783 (docs/text.md).
constexpr float wordGapSpaceShare = 0.01f;

/// Whether a character (UTF-8) is of a script that parts its words with spaces: not Chinese or Japanese, whose
/// characters follow one another with gaps between them and no space.
bool spacesWords(const std::string &character) {
    if (character.empty()) return true;
    const auto byte = static_cast<unsigned char>(character[0]);
    char32_t point = byte;
    if (byte >= 0xF0 && character.size() >= 4) {
        point = char32_t(byte & 0x07) << 18 | char32_t(character[1] & 0x3F) << 12 | char32_t(character[2] & 0x3F) << 6 |
                char32_t(character[3] & 0x3F);
    } else if (byte >= 0xE0 && character.size() >= 3) {
        point = char32_t(byte & 0x0F) << 12 | char32_t(character[1] & 0x3F) << 6 | char32_t(character[2] & 0x3F);
    }
    // CJK punctuation, kana and ideographs; compatibility ideographs; full-width forms; the supplementary ideographs.
    const bool unspaced = (point >= 0x2E80 && point <= 0x9FFF) || (point >= 0xF900 && point <= 0xFAFF) ||
                          (point >= 0xFF00 && point <= 0xFFEF) || (point >= 0x20000 && point <= 0x3FFFF);
    return !unspaced;
}

/// The network's horizontal stride: one output step for every 8 input columns.
constexpr int stepWidth = 8;

}  // namespace

struct CB_LineReader {
    /// The library and the ONNX file; the network once made (`CB_LineReader_release_networks` frees it).
    std::string runtimePath, modelPath;
    int threads = 1;
    std::unique_ptr<cbridge::OnnxNetwork> network;
    /// Output i (1...N) is characters[i - 1]; 0 is the blank, N + 1 the space.
    std::vector<std::string> characters;
    std::mutex lock;

    /// The network, made when first needed (under `lock`).
    const cbridge::OnnxNetwork &net() {
        if (!network) {
            network = cbridge::OnnxNetwork::open(runtimePath, modelPath, threads);
        }
        return *network;
    }

    /// The network's output (steps x classes) decoded: each step's most probable class, repeats merged and blanks
    /// dropped (CTC greedy decoding), split into words at spaces and at blanks where the space was likely
    /// (`wordGapSpaceShare`). `output` has `characters.size() + 2` classes (checked by the caller).
    std::vector<DecodedWord> decode(const cv::Mat &output) const {
        const int steps = output.size[1], classes = output.size[2], space = classes - 1;
        std::vector<DecodedWord> words;
        bool inWord = false;
        // A gap the network read as blank but where the space was likely (`wordGapSpaceShare`) since the word's last
        // character (`lastCharacter`): the next character starts a word when both sides are of a script that spaces
        // its words.
        bool gapAfterWord = false;
        const std::string *lastCharacter = nullptr;
        int previous = -1;
        for (int step = 0; step < steps; ++step) {
            const float *row = output.ptr<float>(0, step);
            const int best = int(std::max_element(row, row + classes) - row);
            const bool repeated = best == previous;
            previous = best;
            if (best == 0 || repeated) {
                if (repeated && inWord) words.back().lastStep = step;
                if (best == 0 && inWord && row[space] >= wordGapSpaceShare) {
                    gapAfterWord = true;
                }
                continue;
            }
            if (best == space) {
                inWord = false;
                gapAfterWord = false;
                continue;
            }
            const std::string &character = characters[best - 1];
            const bool parted = inWord && gapAfterWord && spacesWords(*lastCharacter) && spacesWords(character);
            gapAfterWord = false;
            if (!inWord || parted) {
                words.push_back(DecodedWord{"", 0, 0, step, step, parted});
                inWord = true;
            }
            DecodedWord &word = words.back();
            word.text += character;
            lastCharacter = &character;
            word.probabilities += row[best];
            word.characters += 1;
            word.lastStep = step;
        }
        return joinedLoneCharacters(words);
    }

    /// `words` with each word parted at a gap joined again to the word before where either is a lone character: the
    /// gap beside a narrow glyph (`1`, `l`, `x`) is its side bearing more often than a space. The SROIE receipts'
    /// `1x` was parted into `1` and `x`, which the vote then took for two words, Tesseract's `1x` lying over the
    /// first only, and left out.
    static std::vector<DecodedWord> joinedLoneCharacters(const std::vector<DecodedWord> &words) {
        std::vector<DecodedWord> joined;
        for (const DecodedWord &word : words) {
            if (word.partedAtGap && !joined.empty() && (word.characters < 2 || joined.back().characters < 2)) {
                DecodedWord &before = joined.back();
                before.text += word.text;
                before.probabilities += word.probabilities;
                before.characters += word.characters;
                before.lastStep = word.lastStep;
            } else {
                joined.push_back(word);
            }
        }
        return joined;
    }
};

extern "C" CB_Status CB_LineReader_new(const char *runtime_path, const char *model_path, const char *keys_path,
                                       int threads, CB_LineReader **out_reader) {
    CB_TRY
    CB_REQUIRE(runtime_path != nullptr && model_path != nullptr && keys_path != nullptr && out_reader != nullptr,
               "CB_LineReader_new: NULL argument");
    CB_REQUIRE(threads >= 1 && threads <= CB_MAX_NETWORK_THREADS, "CB_LineReader_new: threads must be 1...64");
    *out_reader = nullptr;
    auto reader = std::make_unique<CB_LineReader>();
    if (cbridge::regularFileSize(model_path).value_or(0) == 0) {
        return cbridge::fail(CB_MODEL_MISSING, std::string("the text recogniser model ") + model_path +
                                                   " is not installed or is empty; run `make setup` to fetch it");
    }
    reader->runtimePath = runtime_path;
    reader->modelPath = model_path;
    reader->threads = threads;
    std::ifstream keys(keys_path);
    for (std::string line; std::getline(keys, line);) {
        reader->characters.push_back(line);
    }
    if (reader->characters.empty()) {
        return cbridge::fail(CB_MODEL_MISSING, std::string("the text recogniser's character list ") + keys_path +
                                                   " is not installed or is empty; run `make setup` to fetch it");
    }
    try {
        // Made now, so that a file that does not load fails here, once, and not at the first line.
        reader->net();
    } catch (const cbridge::ModelUnavailable &error) {
        return cbridge::fail(CB_MODEL_MISSING, error.what());
    }
    *out_reader = reader.release();
    return CB_OK;
    CB_CATCH
}

extern "C" void CB_LineReader_delete(CB_LineReader *reader) { delete reader; }

extern "C" void CB_LineReader_release_networks(CB_LineReader *reader) {
    if (reader == nullptr) {
        return;
    }
    const std::lock_guard<std::mutex> guard(reader->lock);
    reader->network.reset();
}

extern "C" CB_Status CB_LineReader_read_quad(CB_LineReader *reader, const CB_Image *image, const CB_Quad *quad,
                                             CB_TextLine **out_line) {
    CB_TRY
    CB_REQUIRE(reader != nullptr && image != nullptr && quad != nullptr && out_line != nullptr,
               "CB_LineReader_read_quad: NULL argument");
    *out_line = nullptr;
    for (int corner = 0; corner < 4; ++corner) {
        CB_REQUIRE(std::isfinite(quad->x[corner]) && std::isfinite(quad->y[corner]),
                   "CB_LineReader_read_quad: a corner is not a finite number");
    }
    // Cut out as it is, then scaled as rapidocr scales it (cut straight to 48 pixels tall, ICDAR 2015's dev photos
    // read 0.489 / 0.817 instead of 0.515 / 0.836); but at most 4 times the network's height, so that a quad of
    // any size costs at most a crop of 192 x 16384 pixels.
    const cbridge::LineCrop crop = cbridge::cutLine(*image, *quad, 0, 4 * inputHeight);
    if (crop.pixels.empty()) {
        return CB_OK;
    }
    // rapidocr's resize_norm_img: 48 pixels tall, as wide as the aspect gives (rounded up), at most the network's
    // width (a wider line is squeezed); then (x / 255 - 0.5) / 0.5, and zeros (mid grey) to the right. In BGR, as
    // PaddleOCR trains.
    const double aspect = double(crop.pixels.cols) / crop.pixels.rows;
    const int wanted = int(std::ceil(inputHeight * aspect));
    const size_t width = wanted <= inputWidths[0] ? 0 : 1;
    const int lineWidth = std::clamp(wanted, 1, inputWidths[width]);
    cv::Mat line;
    cv::resize(crop.pixels, line, cv::Size(lineWidth, inputHeight), 0, 0, cv::INTER_LINEAR);
    cv::Mat padded = cv::Mat::zeros(inputHeight, inputWidths[width], CV_32FC3);
    line.convertTo(padded(cv::Rect(0, 0, lineWidth, inputHeight)), CV_32FC3, 2.0 / 255, -1.0);
    const cv::Mat blob = cbridge::planarBlob(padded);
    std::vector<DecodedWord> words;
    {
        std::lock_guard<std::mutex> guard(reader->lock);
        const cv::Mat output = reader->net().run(blob, false);
        CB_REQUIRE(output.dims == 3 && output.size[0] == 1 && output.size[2] == int(reader->characters.size()) + 2,
                   "CB_LineReader_read_quad: the model's output does not match its character list");
        words = reader->decode(output);
    }
    if (words.empty()) {
        return CB_OK;
    }
    // A word spans the columns of its steps, mapped back from the network's input to the crop and the picture.
    const double toCrop = double(crop.pixels.cols) / lineWidth;
    const auto wordQuad = [&](const DecodedWord &word) {
        const int left = int(std::floor(word.firstStep * stepWidth * toCrop));
        const int right = std::min(crop.pixels.cols, int(std::ceil((word.lastStep + 1) * stepWidth * toCrop)));
        return crop.toImage(left, 0, right, crop.pixels.rows);
    };
    // Zeroed, so that CB_TextLines_free can free it however far it was filled when an allocation fails.
    std::unique_ptr<CB_TextLine, void (*)(CB_TextLine *)> result(static_cast<CB_TextLine *>(
                                                                     std::calloc(1, sizeof(CB_TextLine))),
                                                                 [](CB_TextLine *line) { CB_TextLines_free(line, 1); });
    if (!result) {
        throw std::bad_alloc();
    }
    auto *resultWords = static_cast<CB_TextWord *>(std::calloc(words.size(), sizeof(CB_TextWord)));
    if (resultWords == nullptr) {
        throw std::bad_alloc();
    }
    result->words = resultWords;
    result->word_count = words.size();
    std::string text;
    double probabilities = 0;
    int characters = 0;
    for (size_t index = 0; index < words.size(); ++index) {
        resultWords[index].text = cbridge::copyString(words[index].text);
        resultWords[index].confidence = float(100 * words[index].probabilities / words[index].characters);
        resultWords[index].quad = wordQuad(words[index]);
        text += (index > 0 ? " " : "") + words[index].text;
        probabilities += words[index].probabilities;
        characters += words[index].characters;
    }
    result->text = cbridge::copyString(text);
    result->confidence = float(100 * probabilities / characters);
    result->quad = crop.toImage(0, 0, crop.pixels.cols, crop.pixels.rows);
    *out_line = result.release();
    return CB_OK;
    CB_CATCH
}
