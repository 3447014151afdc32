// CB_Barcode_read: the passes over a picture (plain, contrast-equalised, the second chances), each code read once,
// structured-append sequences merged, then the add-ons, the outvoted and partial reads and the bar heights.
#include "Internal.hpp"
#include "BarcodeResults.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace cbridge {

namespace {

/// A code one pass read (ReadPass, below): zxing-cpp's result and the factor that maps its position into `gray`'s
/// pixels, 1 but for a pass that reads `gray` resized.
struct PassRead {
    ZXing::Barcode barcode;
    double toGray = 1;
};

/// What a pass is given: the picture, the caller's options, and the codes the passes before it read.
struct PassInput {
    const cv::Mat &gray;
    const CB_BarcodeOptions &options;
    /// The CB_Format flags asked for (never 0).
    int wanted;
    /// Whether a region's linear codes are read along the picture's lines (readAlongPicturesLines), not by a pass.
    bool alongPicturesLines;
    const std::vector<PassRead> &read;
};

std::vector<PassRead> readAsIs(ZXing::Barcodes results) {
    std::vector<PassRead> reads;
    for (auto &result : results) {
        reads.push_back({std::move(result), 1});
    }
    return reads;
}

/// The plain pass: the picture as it is, every format asked for but the linear codes read along the picture's
/// lines, with all the caller's knobs.
int plainFormats(const PassInput &input) {
    return input.alongPicturesLines ? input.wanted & ~linearFormats : input.wanted;
}

std::vector<PassRead> readPlain(const PassInput &input, int formats) {
    const auto &options = input.options;
    return readAsIs(readBarcodes(input.gray, readerOptions(formats, options.try_harder != 0, options.try_rotate != 0,
                                                           options.try_inverted != 0, options.try_downscale != 0)));
}

/// The contrast-equalised pass (try_equalised): the 2-D codes asked for. zxing-cpp's local binariser takes an 8 x 8
/// block whose grey levels span fewer than 24 for flat: in an underexposed photo, or one whose exposure a bright
/// spot or glare set, a code's modules can differ by less, and no edge is found. CLAHE stretches the levels of each
/// tile of an 8 x 8 grid over the picture, blending neighbouring tiles' mappings; its clip limit of 2 keeps noise
/// from being stretched into edges. On the BoofCV QR photos: 116 -> 122 codes (bright spots 1 -> 5 of 12, glare
/// 1 -> 2, non-compliant 3 -> 4), none where no label is; on the zxing and zxing-cpp corpora one Data Matrix more.
/// Linear formats are not looked for: equalised, the corpora's EAN/UPC photos read 14 codes more but also false
/// ones (an EAN-8 inside an EAN-13's bars, an EAN-13 beside a UPC-A): a linear code's check is one digit, a 2-D
/// code's is error correction.
int equalisedFormats(const PassInput &input) {
    return input.options.try_equalised != 0 ? input.wanted & ~linearFormats : 0;
}

std::vector<PassRead> readEqualised(const PassInput &input, int formats) {
    cv::Mat equalised;
    cv::createCLAHE(2.0, cv::Size(8, 8))->apply(input.gray, equalised);
    // Once, as it is: it costs a 12-megapixel photo 0.25 s of CPU (0.72-0.78 -> 0.98-1.00 s, 4 alternated
    // runs). Inverted and through zxing-cpp's downscaled passes as well, it read nothing more on BoofCV's photos
    // and took that photo's scan from 1.25 to 3.1 s (one run each).
    return readAsIs(readBarcodes(equalised, readerOptions(formats, input.options.try_harder != 0,
                                                          input.options.try_rotate != 0, false)));
}

/// The 2-D formats, matrix and stacked, that get second chances: read from an area of modules, which the binarizer
/// must resolve. Not Micro QR: small by design (at most 17 modules a side), halved it blurs away, and looking for it
/// there cost the BoofCV hand-held Micro QR video frame recall (0.930 -> 0.911).
constexpr int secondChanceFormats = CB_FORMAT_AZTEC | CB_FORMAT_DATAMATRIX | CB_FORMAT_PDF417 | CB_FORMAT_QRCODE;

/// The second chances (try_second_chances): the second-chance formats asked for that no pass before found, looked
/// for in the picture resized, with the caller's knobs, not zxing-cpp's downscaled passes. A format found is found:
/// of each, a second chance takes the first code it reads.
int missingSecondChanceFormats(const PassInput &input) {
    if (input.options.try_second_chances == 0) {
        return 0;
    }
    int missing = input.wanted & secondChanceFormats;
    for (const auto &read : input.read) {
        missing &= ~formatFlag(read.barcode);
    }
    return missing;
}

std::vector<PassRead> readSecondChance(const cv::Mat &resized, const PassInput &input, int missing,
                                       ZXing::Binarizer binarizer) {
    ZXing::ReaderOptions options = readerOptions(missing, input.options.try_harder != 0, input.options.try_rotate != 0,
                                                 input.options.try_inverted != 0);
    options.setBinarizer(binarizer);
    std::vector<PassRead> found;
    for (auto &result : readBarcodes(resized, options)) {
        if (result.isValid() && (formatFlag(result) & missing) != 0) {
            missing &= ~formatFlag(result);
            found.push_back({std::move(result), static_cast<double>(input.gray.cols) / resized.cols});
        }
    }
    return found;
}

/// The first second chance: the picture halved with INTER_AREA, which averages away noise, blur and picture texture
/// inside the modules (photo-filled "design" codes, large noisy photos).
int halvedFormats(const PassInput &input) {
    constexpr int minShortSideToHalve = 64;
    return std::min(input.gray.cols, input.gray.rows) >= minShortSideToHalve ? missingSecondChanceFormats(input) : 0;
}

std::vector<PassRead> readHalved(const PassInput &input, int formats) {
    cv::Mat half;
    cv::resize(input.gray, half, cv::Size((input.gray.cols + 1) / 2, (input.gray.rows + 1) / 2), 0, 0, cv::INTER_AREA);
    return readSecondChance(half, input, formats, ZXing::Binarizer::LocalAverage);
}

/// The second second chance, for pictures whose long side is at most 640 px: the picture doubled (INTER_CUBIC),
/// read with the GlobalHistogram binarizer: modules a few pixels wide are too fine for LocalAverage's 8x8 blocks
/// (small images, curved QR codes, a PDF417 photographed at 2 px a module). Costs 4-9 ms on a 640x480 frame; skipped
/// above that (7-21 ms at 720p).
int doubledFormats(const PassInput &input) {
    constexpr int maxLongSideToDouble = 640;
    return std::max(input.gray.cols, input.gray.rows) <= maxLongSideToDouble ? missingSecondChanceFormats(input) : 0;
}

std::vector<PassRead> readDoubled(const PassInput &input, int formats) {
    cv::Mat twice;
    cv::resize(input.gray, twice, cv::Size(input.gray.cols * 2, input.gray.rows * 2), 0, 0, cv::INTER_CUBIC);
    return readSecondChance(twice, input, formats, ZXing::Binarizer::GlobalHistogram);
}

/// One read of the picture: the CB_Format flags it looks for, given what it is given (0: it does not run), and its
/// reading of them. Nothing is caught: each reads a picture of a size zxing-cpp, cv::resize and CLAHE take (a side of
/// 1 to 65535 pixels), so what throws is what the plain read would throw (running out of memory, a library's bug),
/// which CB_Barcode_read reports, not "nothing found".
struct ReadPass {
    int (*looksFor)(const PassInput &input);
    std::vector<PassRead> (*read)(const PassInput &input, int formats);
};

/// The passes, in order, as zxing-cpp's ReadBarcodes reads its pyramid's layers, each also inverted: one after
/// another, each taking the codes no pass before it read (readAlready).
constexpr ReadPass readPasses[] = {
    {plainFormats, readPlain},
    {equalisedFormats, readEqualised},
    {halvedFormats, readHalved},
    {doubledFormats, readDoubled},
};

/// Whether `code` is one of the first `count` of `reads` read again: the same format and bytes, centred within half
/// `code`'s diagonal of it, in `gray`'s pixels. ReadBarcodes keeps the codes of its layers and inversions apart alike
/// (Barcode's operator==: the same format and bytes, the centre of one inside the other), and its rule keeps the
/// codes of one pass apart.
bool readAlready(const std::vector<PassRead> &reads, size_t count, const PassRead &code) {
    const CB_Quad quad = quadOf(code.barcode.position(), {0, 0}, code.toGray);
    const double diagonal = std::hypot(quad.x[2] - quad.x[0], quad.y[2] - quad.y[0]);
    return std::any_of(reads.begin(), reads.begin() + static_cast<std::ptrdiff_t>(count), [&](const PassRead &other) {
        return other.barcode.format() == code.barcode.format() && other.barcode.bytes() == code.barcode.bytes() &&
               cv::norm(centreOf(quadOf(other.barcode.position(), {0, 0}, other.toGray)) - centreOf(quad)) <
                   diagonal / 2;
    });
}

/// The valid codes the passes read in `gray`, in the order they read them.
std::vector<PassRead> readInPasses(const cv::Mat &gray, const CB_BarcodeOptions &options, int wanted,
                                   bool alongPicturesLines) {
    std::vector<PassRead> read;
    for (const ReadPass &pass : readPasses) {
        const PassInput input{gray, options, wanted, alongPicturesLines, read};
        const int formats = pass.looksFor(input);
        if (formats == 0) {
            continue;
        }
        const size_t before = read.size();
        for (auto &code : pass.read(input, formats)) {
            if (code.barcode.isValid() && !readAlready(read, before, code)) {
                read.push_back(std::move(code));
            }
        }
    }
    return read;
}

/// Appends the codes read, a complete structured-append sequence (every part in this image, one id) as one barcode:
/// its content is the parts' in order and its quad the smallest rectangle around all of them. Parts of an
/// incomplete sequence stay separate barcodes, as zxing-cpp read them. `scale` maps `gray`'s pixels to the list's.
void appendMergingSequences(const std::vector<PassRead> &reads, double scale, BarcodeList &barcodes) {
    using SequenceKey = std::tuple<int, std::string, int>;             // format, id, size
    std::map<SequenceKey, std::map<int, const PassRead *>> sequences;  // parts by index, one each
    for (const auto &read : reads) {
        const ZXing::Barcode &result = read.barcode;
        if (result.isPartOfSequence()) {
            sequences[{static_cast<int>(result.format()), result.sequenceId(), result.sequenceSize()}].emplace(
                result.sequenceIndex(), &read);
        } else {
            barcodes.append(result, scale * read.toGray);
        }
    }
    for (const auto &[key, parts] : sequences) {
        const int size = std::get<2>(key);
        const bool complete =
            static_cast<int>(parts.size()) == size && parts.begin()->first == 0 && parts.rbegin()->first == size - 1;
        if (!complete) {
            for (const auto &[index, part] : parts) {
                barcodes.append(part->barcode, scale * part->toGray);
            }
            continue;
        }
        // The corners first: MergeStructuredAppendSequence writes its result through the first part's data
        // (zxing-cpp 3.1.1's Barcode copies share it), clearing that part's position.
        std::vector<cv::Point2f> corners;
        ZXing::Barcodes inOrder;
        for (const auto &[index, part] : parts) {
            const double toList = scale * part->toGray;
            for (const auto &corner : part->barcode.position()) {
                corners.emplace_back(static_cast<float>(corner.x * toList), static_cast<float>(corner.y * toList));
            }
            inOrder.push_back(part->barcode);
        }
        const ZXing::Barcode merged = ZXing::MergeStructuredAppendSequence(inOrder);
        if (!merged.isValid()) {
            continue;  // only for parts of different ids or sizes, which the grouping above rules out
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

}  // namespace

}  // namespace cbridge

extern "C" CB_Status CB_Barcode_read(const CB_Image *image, const CB_BarcodeOptions *options, CB_Barcode **out_barcodes,
                                     size_t *out_count) {
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
    // zxing-cpp refuses images wider or taller than 65535 pixels: a sliver that long is read downscaled to fit.
    constexpr int zxingMaxSide = 65535;
    const int maxSide = options->max_dimension > 0 ? std::min(options->max_dimension, zxingMaxSide) : zxingMaxSide;
    if (longSide > maxSide) {
        scale = static_cast<double>(longSide) / maxSide;
        gray = cbridge::resized(gray, 1 / scale, cv::INTER_AREA);
    }
    const int wanted = options->formats == 0 ? CB_FORMAT_DEFAULT : options->formats;
    const auto zxingOptions = cbridge::readerOptions(wanted, options->try_harder != 0, options->try_rotate != 0,
                                                     options->try_inverted != 0, options->try_downscale != 0);
    cbridge::BarcodeList barcodes(wanted);
    const int linearWanted = wanted & cbridge::linearFormats;
    const cv::Size picture(static_cast<int>(std::lround(image->width() / scale)),
                           static_cast<int>(std::lround(image->height() / scale)));
    const bool alongPicturesLines = options->along_picture_lines != 0 && options->try_harder != 0 &&
                                    linearWanted != 0 &&
                                    cbridge::picturesLinesAreSparser(gray.size(), picture, options->try_rotate != 0);
    // The passes' codes and a region's linear codes along the picture's lines, then those codes' add-ons and
    // sequences, codes at any angle, and last the rules that settle reads of the same bars.
    std::vector<cbridge::PassRead> reads = cbridge::readInPasses(gray, *options, wanted, alongPicturesLines);
    std::vector<cbridge::LineRead> lineReads;
    if (alongPicturesLines) {
        lineReads = cbridge::readAlongPicturesLines(gray, picture,
                                                    cbridge::readerOptions(linearWanted, true, false,
                                                                           options->try_inverted != 0,
                                                                           options->try_downscale != 0),
                                                    options->try_rotate != 0);
    }
    // A code also read with its add-on, on rows that cross it, needs no second read: dropPartialReads drops the
    // read without.
    const auto alsoReadWithAddOn = [&](const ZXing::Barcode &main) {
        const auto extends = [&](const ZXing::Barcode &other) {
            return other.format() == main.format() && other.text().size() > main.text().size() &&
                   other.text().rfind(main.text(), 0) == 0;
        };
        return std::any_of(reads.begin(), reads.end(), [&](const auto &read) { return extends(read.barcode); }) ||
               std::any_of(lineReads.begin(), lineReads.end(), [&](const auto &read) { return extends(read.barcode); });
    };
    // Appends `main` as read again with its add-on (its line's ends `left` and `right` in `gray`'s pixels); false
    // when there is none to read.
    const auto appendedWithAddOn = [&](const ZXing::Barcode &main, cv::Point2f left, cv::Point2f right) {
        if (alsoReadWithAddOn(main)) {
            return false;
        }
        const auto withAddOn = cbridge::readAddOn(gray, main, left, right, zxingOptions, false);
        if (!withAddOn) {
            return false;
        }
        const CB_Quad quad = cbridge::quadOf(withAddOn->first.position(), withAddOn->second, scale);
        barcodes.append(withAddOn->first, 1, &quad);
        return true;
    };
    for (auto read = reads.begin(); read != reads.end();) {
        const auto [left, right] = cbridge::lineEnds(read->barcode.position());
        const auto toGray = static_cast<float>(read->toGray);
        read = appendedWithAddOn(read->barcode, left * toGray, right * toGray) ? reads.erase(read) : std::next(read);
    }
    cbridge::appendMergingSequences(reads, scale, barcodes);
    for (const auto &read : lineReads) {
        if (appendedWithAddOn(read.barcode, read.corners[0], read.corners[1])) {
            continue;
        }
        CB_Quad quad{};
        for (int corner = 0; corner < 4; ++corner) {
            quad.x[corner] = static_cast<float>(read.corners[corner].x * scale);
            quad.y[corner] = static_cast<float>(read.corners[corner].y * scale);
        }
        barcodes.append(read.barcode, 1, &quad);
    }
    if (options->try_any_angle != 0) {
        cbridge::readTurnedLinearCodes(gray, wanted, options->try_inverted != 0, scale, barcodes);
    }
    barcodes.translate(static_cast<float>(area.x), static_cast<float>(area.y));
    const CB_Status status = barcodes.release(out_barcodes, out_count);
    if (status == CB_OK) {
        cbridge::coverBarHeights(image->gray(), *out_barcodes, *out_count);
        cbridge::dropPartialReads(*out_barcodes, *out_count);
        cbridge::dropOutvotedReads(image->gray(), *out_barcodes, *out_count, options->try_inverted != 0);
        if (*out_count == 0) {
            std::free(*out_barcodes);
            *out_barcodes = nullptr;
        }
    }
    return status;
    CB_CATCH
}

extern "C" void CB_Barcodes_free(CB_Barcode *barcodes, size_t count) {
    if (barcodes == nullptr) {
        return;
    }
    for (size_t index = 0; index < count; ++index) {
        cbridge::freeContents(barcodes[index]);
    }
    std::free(barcodes);
}
