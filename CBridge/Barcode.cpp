#include "Internal.hpp"
#include "BarcodeResults.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <atomic>
#include <csetjmp>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

static_assert(CB_FORMAT_QRCODE == static_cast<int>(ZXing::BarcodeFormat::QRCode), "CB_Format mirrors zxing");
static_assert(CB_FORMAT_MICROQRCODE == static_cast<int>(ZXing::BarcodeFormat::MicroQRCode), "CB_Format mirrors zxing");
static_assert(CB_FORMAT_ALL == static_cast<int>(ZXing::BarcodeFormat::Any), "CB_Format mirrors zxing");

namespace cbridge {

ZXing::DecodeHints decodeHints(int formats, bool tryHarder, bool tryRotate) {
    ZXing::DecodeHints hints;
    hints.setFormats(formats == 0 ? ZXing::BarcodeFormat::Any : static_cast<ZXing::BarcodeFormat>(formats));
    hints.setTryHarder(tryHarder);
    hints.setTryRotate(tryRotate);
    // zxing-cpp 1.4.0 abort()s inside its downscaling on some 1080p multi-code frames (assertion
    // `lineCount() == 1`, upstream issue 740). An abort cannot be caught: never enable it.
    hints.setTryDownscale(false);
    return hints;
}

namespace {

// zxing-cpp 1.4.0 as Debian builds it keeps its assertions, and `Result::operator==` asserts
// `lineCount() == 1` when it merges the rows of some linear symbols (DataBar above all; upstream issue
// 740). assert() calls abort(), which would take the user's process down. While zxing runs, a SIGABRT
// handler jumps back here instead; any other abort goes to the handler that was there before.
// Jumping over zxing's frames leaks what they allocated: a few kilobytes, on a frame that already failed.
thread_local sigjmp_buf *zxingAbortJump = nullptr;
struct sigaction previousAbortAction;

void onAbort(int signal) {
    if (zxingAbortJump != nullptr) {
        siglongjmp(*zxingAbortJump, 1);
    }
    sigaction(SIGABRT, &previousAbortAction, nullptr);
    raise(signal);
}

void installAbortGuard() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action {};
        action.sa_handler = onAbort;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_NODEFER;
        sigaction(SIGABRT, &action, &previousAbortAction);
    });
}

}  // namespace

// The same bug, caught one step earlier and quietly: this definition takes the place of glibc's for
// libZXing (the executable's symbols come first), so a failed zxing assertion jumps back without the
// "Assertion failed" line on stderr. Any other assertion is reported and aborts exactly as glibc does.
extern "C" void __assert_fail(const char *assertion, const char *file, unsigned int line,
                                           const char *function) noexcept {
    if (zxingAbortJump != nullptr) {
        siglongjmp(*zxingAbortJump, 1);
    }
    std::fprintf(stderr, "%s: %s:%u: %s%sAssertion `%s' failed.\n", program_invocation_short_name, file, line,
                 function != nullptr ? function : "", function != nullptr ? ": " : "", assertion);
    std::abort();
}

namespace {

/// ReadBarcodes, or false when zxing-cpp aborted inside it (`results` is then left untouched).
bool readGuarded(const ZXing::ImageView &view, const ZXing::DecodeHints &hints, ZXing::Results &results) {
    installAbortGuard();
    sigjmp_buf jump;
    if (sigsetjmp(jump, 1) != 0) {
        zxingAbortJump = nullptr;
        return false;
    }
    zxingAbortJump = &jump;
    ZXing::Results found = ZXing::ReadBarcodes(view, hints);
    zxingAbortJump = nullptr;
    results = std::move(found);
    return true;
}

}  // namespace

ZXing::Results readBarcodes(const cv::Mat &gray, const ZXing::DecodeHints &hints) {
    CV_Assert(gray.type() == CV_8UC1);  // rows may be a region's: the view takes their stride
    const ZXing::ImageView view(gray.data, gray.cols, gray.rows, ZXing::ImageFormat::Lum,
                                static_cast<int>(gray.step));
    // After an abort the same symbol is usually still in view: read the safe way for a while rather
    // than abort (and leak, about 1.5 KB) on every frame.
    static std::atomic<int> safeReadsLeft{0};
    ZXing::Results results;
    if (safeReadsLeft.load() <= 0) {
        if (readGuarded(view, hints, results)) {
            return results;
        }
        safeReadsLeft = 300;
    } else {
        --safeReadsLeft;
    }
    // The abort comes from merging rows of one symbol: stopping at the first symbol found never merges.
    // Read again without DataBar (the usual culprit), then DataBar alone, one symbol at most.
    int formats = 0;
    for (const auto format : hints.formats()) {
        formats |= static_cast<int>(format);
    }
    formats = formats == 0 ? CB_FORMAT_ALL : formats;
    const int dataBar = CB_FORMAT_DATABAR | CB_FORMAT_DATABAR_EXPANDED;
    ZXing::DecodeHints others = hints;
    others.setFormats(static_cast<ZXing::BarcodeFormat>(formats & ~dataBar));
    if (!others.formats().empty()) {
        readGuarded(view, others, results);
    }
    ZXing::DecodeHints single = hints;
    single.setFormats(static_cast<ZXing::BarcodeFormat>(formats & dataBar));
    single.setMaxNumberOfSymbols(1);
    ZXing::Results dataBarResults;
    if (!single.formats().empty() && readGuarded(view, single, dataBarResults)) {
        results.insert(results.end(), dataBarResults.begin(), dataBarResults.end());
    }
    return results;
}

/// Second chances for QR codes, for frames where the plain read found none; stops at the first step that
/// reads one. Each result comes with the factor that maps its position back to `gray`'s pixels.
///  1. `gray` halved with INTER_AREA: averages away noise, blur and picture texture inside the modules
///     (photo-filled "design" codes, large noisy photos).
///  2. Images whose long side is at most 640 px only: `gray` doubled (INTER_CUBIC), read with the
///     GlobalHistogram binarizer: modules a few pixels wide are too fine for LocalAverage's 8x8 blocks
///     (small images, curved codes). Costs 4-9 ms on a 640x480 frame; skipped above that (7-21 ms at 720p).
/// Only QRCode is looked for (the caller's tryHarder / tryRotate are kept). Never throws: a failure is "not found".
std::vector<std::pair<ZXing::Result, double>> readQRFallbacks(const cv::Mat &gray, ZXing::DecodeHints hints) noexcept {
    constexpr int minShortSideToHalve = 64, maxLongSideToDouble = 640;
    std::vector<std::pair<ZXing::Result, double>> found;
    try {
        hints.setFormats(ZXing::BarcodeFormat::QRCode);
        hints.setTryDownscale(false);
        const auto take = [&](const cv::Mat &image, const ZXing::DecodeHints &stepHints, double toGray) {
            for (auto &result : readBarcodes(image, stepHints)) {
                if (result.isValid() && result.format() == ZXing::BarcodeFormat::QRCode) {
                    found.emplace_back(std::move(result), toGray);
                }
            }
            return !found.empty();
        };
        if (std::min(gray.cols, gray.rows) >= minShortSideToHalve) {
            cv::Mat half;
            cv::resize(gray, half, cv::Size((gray.cols + 1) / 2, (gray.rows + 1) / 2), 0, 0, cv::INTER_AREA);
            if (take(half, hints, static_cast<double>(gray.cols) / half.cols)) {
                return found;
            }
        }
        if (std::max(gray.cols, gray.rows) <= maxLongSideToDouble) {
            cv::Mat twice;
            cv::resize(gray, twice, cv::Size(gray.cols * 2, gray.rows * 2), 0, 0, cv::INTER_CUBIC);
            ZXing::DecodeHints histogram = hints;
            histogram.setBinarizer(ZXing::Binarizer::GlobalHistogram);
            take(twice, histogram, 0.5);
        }
    } catch (...) {
        found.clear();
    }
    return found;
}

BarcodeList::~BarcodeList() {
    for (auto &barcode : barcodes) {
        std::free(barcode.text);
        std::free(barcode.bytes);
    }
}

void BarcodeList::translate(float dx, float dy) {
    for (auto &barcode : barcodes) {
        for (int corner = 0; corner < 4; ++corner) {
            barcode.quad.x[corner] += dx;
            barcode.quad.y[corner] += dy;
        }
    }
}

void BarcodeList::append(const ZXing::Result &result, double scale, const CB_Quad *quadOverride) {
    CB_Barcode barcode{};
    barcode.format = static_cast<int>(result.format());
    barcode.sequence_index = result.sequenceSize() > 0 ? result.sequenceIndex() : -1;
    barcode.sequence_size = std::max(result.sequenceSize(), 0);
    if (quadOverride != nullptr) {
        barcode.quad = *quadOverride;
    } else {
        const auto &position = result.position();
        const ZXing::PointI corners[4] = {position.topLeft(), position.topRight(), position.bottomRight(),
                                          position.bottomLeft()};
        for (int corner = 0; corner < 4; ++corner) {
            barcode.quad.x[corner] = static_cast<float>(corners[corner].x * scale);
            barcode.quad.y[corner] = static_cast<float>(corners[corner].y * scale);
        }
    }
    std::strncpy(barcode.symbology_identifier, result.symbologyIdentifier().c_str(),
                 sizeof(barcode.symbology_identifier) - 1);
    barcodes.push_back(barcode);  // owned from here on, so the allocations below cannot leak
    auto &owned = barcodes.back();
    const auto &bytes = result.bytes();
    owned.bytes = static_cast<uint8_t *>(std::malloc(std::max<size_t>(bytes.size(), 1)));
    if (owned.bytes == nullptr) {
        throw std::bad_alloc();
    }
    std::copy(bytes.begin(), bytes.end(), owned.bytes);
    owned.byte_count = bytes.size();
    owned.text = copyString(result.text());
    owned.text_length = result.text().size();
}

CB_Status BarcodeList::release(CB_Barcode **out_barcodes, size_t *out_count) {
    *out_barcodes = nullptr;
    *out_count = 0;
    if (barcodes.empty()) {
        return CB_OK;
    }
    auto *array = static_cast<CB_Barcode *>(std::calloc(barcodes.size(), sizeof(CB_Barcode)));
    if (array == nullptr) {
        return fail(CB_ENGINE_FAILED, "out of memory");
    }
    std::copy(barcodes.begin(), barcodes.end(), array);
    *out_barcodes = array;
    *out_count = barcodes.size();
    barcodes.clear();
    return CB_OK;
}

/// Appends the valid results, a complete structured-append sequence (every part in this image, one id)
/// as one barcode: its content is the parts' in order and its quad the smallest rectangle around all of
/// them. Parts of an incomplete sequence stay separate barcodes, as zxing-cpp read them.
void appendMergingSequences(const ZXing::Results &results, double scale, BarcodeList &barcodes) {
    using SequenceKey = std::tuple<int, std::string, int>;  // format, id, size
    std::map<SequenceKey, std::map<int, const ZXing::Result *>> sequences;  // parts by index, one each
    for (const auto &result : results) {
        if (!result.isValid()) {
            continue;
        }
        if (result.isPartOfSequence()) {
            sequences[{static_cast<int>(result.format()), result.sequenceId(), result.sequenceSize()}]
                .emplace(result.sequenceIndex(), &result);
        } else {
            barcodes.append(result, scale);
        }
    }
    for (const auto &[key, parts] : sequences) {
        const int size = std::get<2>(key);
        const bool complete = static_cast<int>(parts.size()) == size && parts.begin()->first == 0 &&
                              parts.rbegin()->first == size - 1;
        ZXing::Result merged;
        if (complete) {
            ZXing::Results ordered;
            for (const auto &[index, part] : parts) {
                ordered.push_back(*part);
            }
            merged = ZXing::MergeStructuredAppendSequence(ordered);
        }
        if (!merged.isValid()) {
            for (const auto &[index, part] : parts) {
                barcodes.append(*part, scale);
            }
            continue;
        }
        std::vector<cv::Point2f> corners;
        for (const auto &[index, part] : parts) {
            for (const auto &corner : part->position()) {
                corners.emplace_back(static_cast<float>(corner.x * scale), static_cast<float>(corner.y * scale));
            }
        }
        cv::Point2f box[4];
        cv::minAreaRect(corners).points(box);
        // minAreaRect's first corner depends on its angle; the quad starts top-left, clockwise.
        const auto byKey = [&](auto key) {
            return *std::min_element(box, box + 4, [&](auto a, auto b) { return key(a) < key(b); });
        };
        const cv::Point2f ordered[4] = {byKey([](cv::Point2f p) { return p.x + p.y; }),
                                        byKey([](cv::Point2f p) { return p.y - p.x; }),
                                        byKey([](cv::Point2f p) { return -(p.x + p.y); }),
                                        byKey([](cv::Point2f p) { return p.x - p.y; })};
        CB_Quad quad{};
        for (int corner = 0; corner < 4; ++corner) {
            quad.x[corner] = ordered[corner].x;
            quad.y[corner] = ordered[corner].y;
        }
        barcodes.append(merged, 1, &quad);
    }
}

}  // namespace cbridge

extern "C" CB_Status CB_Barcode_read(const CB_Image *image, const CB_BarcodeOptions *options,
                                     CB_Barcode **out_barcodes, size_t *out_count) {
    CB_TRY
    CB_REQUIRE(image != nullptr && options != nullptr && out_barcodes != nullptr && out_count != nullptr,
               "CB_Barcode_read: NULL argument");
    *out_barcodes = nullptr;
    *out_count = 0;
    CB_REQUIRE((options->formats & ~CB_FORMAT_ALL) == 0, "CB_Barcode_read: unknown format flags");

    cv::Rect area(0, 0, image->width(), image->height());
    if (options->region.width > 0 && options->region.height > 0) {
        area &= cv::Rect(options->region.x, options->region.y, options->region.width, options->region.height);
        if (area.width < 8 || area.height < 8) {
            return CB_OK;  // nothing readable fits
        }
    }
    cv::Mat gray = image->gray()(area);  // a header: resizing below rebinds it, never writes
    double scale = 1;
    const int longSide = std::max(gray.cols, gray.rows);
    if (options->max_dimension > 0 && longSide > options->max_dimension) {
        scale = static_cast<double>(longSide) / options->max_dimension;
        gray = cbridge::resized(gray, 1 / scale, cv::INTER_AREA);
    }
    const auto hints = cbridge::decodeHints(options->formats, options->try_harder != 0, options->try_rotate != 0);
    cbridge::BarcodeList barcodes;
    ZXing::Results results = cbridge::readBarcodes(gray, hints);
    const int matrixFormats = CB_FORMAT_QRCODE | CB_FORMAT_MICROQRCODE | CB_FORMAT_DATAMATRIX | CB_FORMAT_AZTEC;
    const int wanted = options->formats == 0 ? CB_FORMAT_ALL : options->formats;
    if (options->try_inverted != 0 && (wanted & matrixFormats) != 0) {
        // zxing-cpp 1.4 has no tryInvert (2.x has): read the negative for light-on-dark 2-D codes and keep
        // what the positive did not already give.
        cv::Mat negative;
        cv::bitwise_not(gray, negative);
        const auto inverseHints = cbridge::decodeHints(wanted & matrixFormats, options->try_harder != 0,
                                                       options->try_rotate != 0);
        for (auto &result : cbridge::readBarcodes(negative, inverseHints)) {
            const bool known = std::any_of(results.begin(), results.end(), [&](const ZXing::Result &found) {
                return found.isValid() && found.bytes() == result.bytes() && found.format() == result.format();
            });
            if (result.isValid() && !known) {
                results.push_back(std::move(result));
            }
        }
    }
    cbridge::appendMergingSequences(results, scale, barcodes);
    const bool foundQR = std::any_of(results.begin(), results.end(), [](const ZXing::Result &result) {
        return result.isValid() && result.format() == ZXing::BarcodeFormat::QRCode;
    });
    if ((wanted & CB_FORMAT_QRCODE) != 0 && !foundQR && options->try_harder != 0) {
        for (const auto &[result, toGray] : cbridge::readQRFallbacks(gray, hints)) {
            barcodes.append(result, scale * toGray);
        }
    }
    barcodes.translate(static_cast<float>(area.x), static_cast<float>(area.y));
    const CB_Status status = barcodes.release(out_barcodes, out_count);
    if (status == CB_OK) {
        cbridge::coverBarHeights(image->gray(), *out_barcodes, *out_count);
    }
    return status;
    CB_CATCH
}

extern "C" void CB_Barcodes_free(CB_Barcode *barcodes, size_t count) {
    if (barcodes == nullptr) {
        return;
    }
    for (size_t index = 0; index < count; ++index) {
        std::free(barcodes[index].text);
        std::free(barcodes[index].bytes);
    }
    std::free(barcodes);
}
