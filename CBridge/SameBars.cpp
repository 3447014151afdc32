// Reads of one linear code's bars. A printed code has one payload, and its bars are the same all along their
// height; yet zxing-cpp, reading line by line, may report the same bars more than once: on some lines without the
// add-on beside them, or, since a checksum lets about one garbled line in ten through, as another code. Of reads
// that lie on the same bars, the one the bars carry stands: the longest, when one is part of another; otherwise
// the one read alike on most of the bars' height.
#include "Internal.hpp"
#include "BarcodeResults.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace cbridge {

namespace {

// Bands across the bars' height that are read on their own to count how much of the bars carries each reading.
// A garbled stretch (a crease, a glare spot, the bars' blurred ends) spoils a band or two.
constexpr int heightBands = 8;
// ... each at least this many rows of the upright cut, so that zxing-cpp has rows to read in it.
constexpr int minBandRows = 3;

/// Whether `point` lies on the bars of the linear code whose quad is `quad`: between its ends along the scan line,
/// and across it within its bars' height grown by a quarter on each side (the height is measured where the profile
/// repeats, which skewed or curved bars leave short).
bool onBarsOf(const CB_Quad &quad, cv::Point2d point) {
    const ScanAxis axis(quad);
    if (axis.length < 1) {
        return false;
    }
    double acrossMin = 0, acrossMax = 0;
    for (int corner = 0; corner < 4; ++corner) {
        const double across = axis.coordinates({quad.x[corner], quad.y[corner]}).y;
        acrossMin = std::min(acrossMin, across), acrossMax = std::max(acrossMax, across);
    }
    const double grow = (acrossMax - acrossMin) / 4;
    const cv::Point2d at = axis.coordinates(point);
    return at.x >= 0 && at.x <= axis.length && at.y >= acrossMin - grow && at.y <= acrossMax + grow;
}

std::string textOf(const CB_Barcode &barcode) { return {barcode.text, barcode.text_length}; }

/// Whether `part` is a partial read of `whole`: a linear code of the same format whose centre lies on `whole`'s
/// bars and whose text is part of `whole`'s. Bars belong to one code, so a read inside another code's bars that
/// spells part of it read only some of them: ITF, which has no fixed length, from a few of its pairs; an EAN
/// without the add-on a read beside it found.
bool isPartialRead(const CB_Barcode &part, const CB_Barcode &whole) {
    if ((part.format & linearFormats) == 0 || part.format != whole.format || part.text_length >= whole.text_length) {
        return false;
    }
    return textOf(whole).find(textOf(part)) != std::string::npos && onBarsOf(whole.quad, centreOf(part.quad));
}

/// Whether `a` and `b` are two readings of the same bars: linear reads of one format that spell different codes,
/// one's centre on the other's bars.
bool readTheSameBarsTwoWays(const CB_Barcode &a, const CB_Barcode &b) {
    return (a.format & linearFormats) != 0 && a.format == b.format && textOf(a) != textOf(b) &&
           (onBarsOf(a.quad, centreOf(b.quad)) || onBarsOf(b.quad, centreOf(a.quad)));
}

/// Whether a band's read `read` is the reading `reading`: the same text, or the same main digits where one of
/// them has an add-on the other missed.
bool isTheReading(const std::string &read, const std::string &reading) {
    return read.rfind(reading, 0) == 0 || reading.rfind(read, 0) == 0;
}

struct BandVotes {
    int a = 0, b = 0;
};

/// How many of heightBands bands across the bars of `a` and `b` (both quads, grown to cover each other) read as
/// `a` and how many as `b`, each band cut out upright and read on its own.
BandVotes countBands(const cv::Mat &gray, const CB_Barcode &a, const CB_Barcode &b, bool tryInvert) {
    const ScanAxis axis(a.quad);
    double uMin = 1e9, uMax = -1e9, vMin = 1e9, vMax = -1e9;
    for (const CB_Quad *quad : {&a.quad, &b.quad}) {
        for (int corner = 0; corner < 4; ++corner) {
            const cv::Point2d at = axis.coordinates({quad->x[corner], quad->y[corner]});
            uMin = std::min(uMin, at.x), uMax = std::max(uMax, at.x), vMin = std::min(vMin, at.y),
            vMax = std::max(vMax, at.y);
        }
    }
    const double length = uMax - uMin, height = vMax - vMin;
    if (length < 8 || height < 1) {
        return {};
    }
    const cv::Point2d centre = axis.left + axis.along * ((uMin + uMax) / 2) + axis.across * ((vMin + vMax) / 2);
    const cv::Mat upright = cutUpright(gray, centre, axis.along, length, height, 0, heightBands * minBandRows).pixels;
    const ZXing::ReaderOptions options = readerOptions(a.format, true, false, tryInvert);
    const std::string aText = textOf(a), bText = textOf(b);
    BandVotes votes;
    for (int band = 0; band < heightBands; ++band) {
        const cv::Range rows(band * upright.rows / heightBands, (band + 1) * upright.rows / heightBands);
        BarcodeList read(a.format);
        for (const auto &result : readBarcodes(upright.rowRange(rows), options)) {
            if (result.isValid()) {
                read.append(result, 1);
            }
        }
        bool readsA = false, readsB = false;
        for (const std::string &text : read.texts()) {
            readsA = readsA || isTheReading(text, aText);
            readsB = readsB || isTheReading(text, bText);
        }
        votes.a += readsA && !readsB ? 1 : 0;
        votes.b += readsB && !readsA ? 1 : 0;
    }
    return votes;
}

/// Frees the barcodes `drop` marks and closes the gaps; `count` becomes what is left.
void dropMarked(CB_Barcode *barcodes, size_t &count, const std::vector<bool> &drop) {
    size_t kept = 0;
    for (size_t index = 0; index < count; ++index) {
        if (drop[index]) {
            freeContents(barcodes[index]);
        } else {
            barcodes[kept++] = barcodes[index];
        }
    }
    count = kept;
}

}  // namespace

void dropPartialReads(CB_Barcode *barcodes, size_t &count) {
    std::vector<bool> lost(count, false);
    for (size_t one = 0; one < count; ++one) {
        for (size_t other = 0; other < count && !lost[one]; ++other) {
            lost[one] = other != one && isPartialRead(barcodes[one], barcodes[other]);
        }
    }
    dropMarked(barcodes, count, lost);
}

void dropOutvotedReads(const cv::Mat &gray, CB_Barcode *barcodes, size_t &count, bool tryInvert) {
    std::vector<bool> lost(count, false);
    for (size_t one = 0; one < count; ++one) {
        for (size_t other = one + 1; other < count; ++other) {
            const CB_Barcode &a = barcodes[one], &b = barcodes[other];
            if (!readTheSameBarsTwoWays(a, b)) {
                continue;
            }
            // zxing-cpp's own count of the scan lines that read each alike decides when one has at least twice
            // the other's (a UPC-E read on 10 lines and misread on 2); closer counts say little, since zxing-cpp
            // scans a code's rows unevenly (an EAN-13 read on 5 lines spread over 117 rows, misread on 4 adjacent
            // ones at the bars' blurred end), so then the bands across the bars' whole height decide.
            if (a.line_count >= 2 * b.line_count || b.line_count >= 2 * a.line_count) {
                lost[a.line_count > b.line_count ? other : one] = true;
                continue;
            }
            const BandVotes votes = countBands(gray, a, b, tryInvert);
            if (votes.a != votes.b) {
                lost[votes.a > votes.b ? other : one] = true;
            }
        }
    }
    dropMarked(barcodes, count, lost);
}

}  // namespace cbridge
