// Linear codes at any angle. zxing-cpp reads linear codes along rows (and, with tryRotate, columns): a code
// turned by 20-70 degrees crosses no row with all its bars, and is never read. Each place a code may be
// (TurnedLinearLocation.cpp) is cut out turned upright (bars vertical), read by zxing-cpp, and its result mapped
// back to the image's pixels.
#include "Internal.hpp"
#include "BarcodeResults.hpp"
#include "TurnedLinear.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace cbridge {

namespace {

using turned::Candidate;
using turned::cellSize;

// Formats without a mandatory check digit: a misread line of noise or print is not caught by a checksum. Their
// reads must be confirmed by a second, independent one: the same text read again on each half of the bars'
// height (a real code's bars carry it all along their length; a chance pattern rarely repeats).
constexpr int unconfirmedFormats = CB_FORMAT_CODABAR | CB_FORMAT_CODE39 | CB_FORMAT_ITF;

bool contains(const Candidate &candidate, cv::Point2d point) {
    const cv::Point2d offset = point - candidate.centre, along(-candidate.across.y, candidate.across.x);
    return std::abs(offset.dot(candidate.across)) <= candidate.length / 2 &&
           std::abs(offset.dot(along)) <= candidate.height / 2;
}

/// Whether `result`, read on the upright cut `upright`, reads the same on each half of the cut's rows.
bool readsOnBothHalves(const cv::Mat &upright, const ZXing::Barcode &result, const ZXing::ReaderOptions &options) {
    const int half = upright.rows / 2;
    for (const cv::Range rows : {cv::Range(0, half), cv::Range(half, upright.rows)}) {
        const auto results = readBarcodes(upright.rowRange(rows), options);
        if (std::none_of(results.begin(), results.end(), [&](const ZXing::Barcode &other) {
                return other.isValid() && other.format() == result.format() && other.bytes() == result.bytes();
            })) {
            return false;
        }
    }
    return true;
}

bool quadContains(const CB_Quad &quad, cv::Point2d point) {
    std::vector<cv::Point2f> corners;
    for (int corner = 0; corner < 4; ++corner) {
        corners.emplace_back(quad.x[corner], quad.y[corner]);
    }
    return cv::pointPolygonTest(corners, cv::Point2f(static_cast<float>(point.x), static_cast<float>(point.y)),
                                false) >= 0;
}

// An upright cut has this share of the code's length as quiet zone on both ends (EAN: 7-11 modules of 95) ...
constexpr double quietZoneToLength = 0.12;
// ... and, when shorter than this, is enlarged (linear interpolation): zxing-cpp needs a module to span well over a
// pixel to tell a 1-wide from a 2-wide bar.
constexpr double minCutLength = 400;
constexpr double maxUpscale = 3;
// A cut whose bars and spaces are on average narrower than this (its length over the edges its probe lines cross)
// gets a second chance, enlarged (up to maxUpscale) to this: zxing-cpp's linear readers measure bars and spaces in
// whole pixels, and at 2 px a module a narrow bar read 1 px too wide or too narrow is a wide one (a Code 39's narrow
// and wide elements differ by a module or two). Across symbologies a bar or space is 1.6-1.8 modules on average,
// so 6 px is a module of about 3.5 px, with each edge placed between pixels by the interpolation. Its reads must
// read the same on both halves of the bars' height, whatever the format: interpolated pixels made a checksum-valid
// EAN-13 misread of a zxing-cpp sample photo (upca-4/6.webp, enlarged to 8 px), which that rejects. Read this way,
// quagga2's phone photos gave two more Code 39 labels (a VIN label at 1.8 px a module, enlarged 1.9x) and nothing
// else changed on the zxing and zxing-cpp corpora (5, 6 and 8 px tried: 1, 2 and 2 more codes).
constexpr double minRunPixels = 6;
// It is at most this many rows tall: bars are the same all along their height, so rows beyond these repeat what
// the others read (zxing-cpp with tryHarder reads every row of a cut this small), at a cost.
constexpr double maxCutRows = 80;

/// Where an upright cut lies (cutUpright): its size, and the map from its pixels (x, y, 1) to the picture's.
struct UprightPlace {
    cv::Size size;
    cv::Matx23d toImage;
};

/// The cut of the code `length` long and `height` tall around `centre`, turned upright; enlarged at least
/// `minEnlarge` times (and to minCutLength, at most maxUpscale).
UprightPlace placeUpright(cv::Point2d centre, cv::Point2d lengthwise, double length, double height, double minQuietZone,
                          int minRows, double minEnlarge = 1) {
    const double quietZone = std::max(quietZoneToLength * length, minQuietZone);
    const double enlarge = std::clamp(std::max(minCutLength / (length + 2 * quietZone), minEnlarge), 1.0, maxUpscale);
    const double rowsPerPixel = std::min(enlarge, maxCutRows / std::max(height, 1.0));
    const cv::Size size(static_cast<int>(std::lround((length + 2 * quietZone) * enlarge)),
                        std::max(minRows, static_cast<int>(std::lround(height * rowsPerPixel))));
    // The cut's pixel (x, y) is centre + (x - w/2) / enlarge * lengthwise + (y - h/2) / rowsPerPixel * barwise.
    const cv::Point2d barwise(-lengthwise.y, lengthwise.x);
    const cv::Point2d origin =
        centre - lengthwise * (size.width / 2.0 / enlarge) - barwise * (size.height / 2.0 / rowsPerPixel);
    return {size, cv::Matx23d(lengthwise.x / enlarge, barwise.x / rowsPerPixel, origin.x,  // one row per coordinate
                              lengthwise.y / enlarge, barwise.y / rowsPerPixel, origin.y)};
}

cv::Mat warpedUpright(const cv::Mat &gray, const cv::Matx23d &toImage, cv::Size size) {
    cv::Mat pixels;
    cv::warpAffine(gray, pixels, cv::Mat(toImage), size, cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REPLICATE);
    return pixels;
}

// Every linear code LiveScan reads is a row of at least 25 bars and spaces (zxing-cpp's shortest Code 128, start +
// one symbol + check + stop; Code 39's and Codabar's shortest have 29 and 31, EAN-8 43, ITF 37), so a line across
// it from quiet zone to quiet zone crosses at least 26 edges. A cut none of whose probe lines crosses this many
// holds no code and is not read: the margin below 26 leaves room for a narrow space blurred into its bars. Of the
// bench video's 4,558 cuts a minute, none of which read a code, 92 % cross fewer; every cut that read a code on the
// linear corpora and quagga2's photos crossed 32 or more.
constexpr int minEdgesAcross = 20;
// The probe lines: rows spread over the cut's height (a code may be damaged or glared on some of them).
constexpr int probeLines = 5;
// An edge is a move between a bar and a space by at least this share of the line's contrast (darkest to lightest).
constexpr double minEdgeToContrast = 0.2;

/// The edges a line of samples crosses: moves up or down by at least minEdgeToContrast of its contrast, each
/// counted once however gradual (a hysteresis, so noise and uneven light do not count).
int edgesOn(const uint8_t *line, int length) {
    const auto [darkest, lightest] = std::minmax_element(line, line + length);
    const int step = std::max(1, static_cast<int>(std::lround(minEdgeToContrast * (*lightest - *darkest))));
    int edges = 0, direction = 0, highest = line[0], lowest = line[0];
    for (int index = 1; index < length; ++index) {
        const int value = line[index];
        highest = std::max(highest, value);
        lowest = std::min(lowest, value);
        if (direction >= 0 && value <= highest - step) {
            ++edges, direction = -1, lowest = value;
        } else if (direction <= 0 && value >= lowest + step) {
            ++edges, direction = 1, highest = value;
        }
    }
    return edges;
}

/// The most edges one of the cut `place`'s probe lines of `gray` crosses, sampled as the cut would be.
int mostEdgesAcross(const cv::Mat &gray, const UprightPlace &place) {
    // Probe row r is the cut's row (r + 0.5) * spacing.
    const double spacing = static_cast<double>(place.size.height) / probeLines;
    cv::Matx23d toProbe = place.toImage;
    for (int row = 0; row < 2; ++row) {
        toProbe(row, 2) += place.toImage(row, 1) * spacing / 2;
        toProbe(row, 1) *= spacing;
    }
    const cv::Mat probe = warpedUpright(gray, toProbe, cv::Size(place.size.width, probeLines));
    int most = 0;
    for (int line = 0; line < probe.rows; ++line) {
        most = std::max(most, edgesOn(probe.ptr<uint8_t>(line), probe.cols));
    }
    return most;
}

}  // namespace

UprightCut cutUpright(const cv::Mat &gray, cv::Point2d centre, cv::Point2d lengthwise, double length, double height,
                      double minQuietZone, int minRows) {
    const UprightPlace place = placeUpright(centre, lengthwise, length, height, minQuietZone, minRows);
    return {warpedUpright(gray, place.toImage, place.size), place.toImage};
}

namespace {

/// One read's turned linear codes: each candidate not in a code already read is cut upright and read, what it
/// reads appended to the list and remembered, so that a later candidate lying in it is passed over.
class TurnedCodeReader {
public:
    TurnedCodeReader(const cv::Mat &gray, int formats, bool tryInvert, double scale, BarcodeList &barcodes)
        : gray_(gray),
          formats_(formats),
          scale_(scale),
          options_(readerOptions(formats, true, false, tryInvert)),
          barcodes_(barcodes) {
        for (const auto &quad : barcodes.quads()) {
            remember(quad);
        }
    }

    void read(const Candidate &candidate) {
        if (isKnown(candidate)) {
            return;
        }
        const auto cut = [&](double minEnlarge) {
            return placeUpright(candidate.centre, candidate.across, candidate.length, candidate.height, 2.0 * cellSize,
                                8, minEnlarge);
        };
        const UprightPlace place = cut(1);
        const int edges = mostEdgesAcross(gray_, place);
        if (edges < minEdgesAcross) {
            return;
        }
        if (readCut(place, unconfirmedFormats) != 0) {
            return;
        }
        // Bars and spaces narrower than minRunPixels: read again enlarged to that, every read confirmed.
        const double run = candidate.length / edges;  // a bar's or space's mean width, in gray's pixels
        if (run < minRunPixels) {
            readCut(cut(minRunPixels / run), formats_);
        }
    }

private:
    /// Keeps `quad` (in the list's pixels: gray's times scale_) in gray's pixels.
    void remember(CB_Quad quad) {
        for (int corner = 0; corner < 4; ++corner) {
            quad.x[corner] = static_cast<float>(quad.x[corner] / scale_);
            quad.y[corner] = static_cast<float>(quad.y[corner] / scale_);
        }
        known_.push_back(quad);
    }

    /// A code decoded in this read already: the candidate is that code (its bars, a linear code's scan line in
    /// it), or lies in it (a run of a 2-D code's modules).
    bool isKnown(const Candidate &candidate) const {
        return std::any_of(known_.begin(), known_.end(), [&](const CB_Quad &quad) {
            return contains(candidate, centreOf(quad)) || quadContains(quad, candidate.centre);
        });
    }

    /// Reads the cut `place`, appending what it reads (reads of the `confirmed` formats only when they read on both
    /// halves of the bars); how many.
    int readCut(const UprightPlace &place, int confirmed) {
        const cv::Mat upright = warpedUpright(gray_, place.toImage, place.size);
        int read = 0;
        for (auto result : readBarcodes(upright, options_)) {
            if (!result.isValid() || (formatFlag(result) & formats_) == 0 ||
                ((formatFlag(result) & confirmed) != 0 && !readsOnBothHalves(upright, result, options_))) {
                continue;
            }
            if (auto withAddOn = readAddOn(upright, result, options_, true)) {
                result = std::move(withAddOn->first);
            }
            CB_Quad quad = quadOf(result.position(), {0, 0}, 1);
            for (int corner = 0; corner < 4; ++corner) {
                const cv::Point2d point = place.toImage * cv::Vec3d(quad.x[corner], quad.y[corner], 1);
                quad.x[corner] = static_cast<float>(point.x * scale_);
                quad.y[corner] = static_cast<float>(point.y * scale_);
            }
            barcodes_.append(result, 1, &quad);
            remember(quad);
            ++read;
        }
        return read;
    }

    const cv::Mat &gray_;
    const int formats_;
    const double scale_;
    const ZXing::ReaderOptions options_;
    BarcodeList &barcodes_;
    std::vector<CB_Quad> known_;
};

}  // namespace

void readTurnedLinearCodes(const cv::Mat &gray, int wanted, bool tryInvert, double scale, BarcodeList &barcodes) {
    const int formats = wanted & linearFormats;
    if (formats == 0) {
        return;
    }
    TurnedCodeReader reader(gray, formats, tryInvert, scale, barcodes);
    for (const Candidate &candidate : turned::locate(gray)) {
        reader.read(candidate);
    }
}

}  // namespace cbridge
