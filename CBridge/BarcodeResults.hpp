// zxing-cpp plumbing shared by the Barcode*.cpp files, QRCode.cpp, TurnedLinear.cpp and SameBars.cpp.
#pragma once

#include "Internal.hpp"

#include <ZXing/ReadBarcode.h>

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cbridge {

/// Owns CB_Barcodes while they are collected, so an exception half-way leaks nothing.
class BarcodeList {
public:
    /// `wantedFormats`: the CB_Format flags asked for (never 0); they decide UPC-A against EAN-13, and results
    /// of any other format are dropped.
    explicit BarcodeList(int wantedFormats) : wanted(wantedFormats) {}
    BarcodeList(const BarcodeList &) = delete;
    BarcodeList &operator=(const BarcodeList &) = delete;
    ~BarcodeList();

    void append(const ZXing::Barcode &result, double scale, const CB_Quad *quadOverride = nullptr);
    /// Moves every quad by (dx, dy): from a region's pixels to the whole image's.
    void translate(float dx, float dy);
    bool empty() const { return barcodes.empty(); }
    /// The quads collected so far, in the coordinates they were appended in.
    std::vector<CB_Quad> quads() const;
    /// The texts collected so far, as they will be reported.
    std::vector<std::string> texts() const;
    /// Moves the barcodes into one calloc'ed array for the caller (CB_Barcodes_free releases it).
    CB_Status release(CB_Barcode **out_barcodes, size_t *out_count);

private:
    int wanted;
    std::vector<CB_Barcode> barcodes;
};

/// Frees what `barcode` owns (its text, bytes and sequence id), not the barcode itself.
void freeContents(CB_Barcode &barcode);

/// zxing-cpp's options for these CB_Format flags (0: CB_FORMAT_DEFAULT) and knobs; see CB_BarcodeOptions.
ZXing::ReaderOptions readerOptions(int formats, bool tryHarder, bool tryRotate, bool tryInvert,
                                   bool tryDownscale = false);
/// The CB_Format flag a result is reported as, CB_FORMAT_NONE for a format LiveScan does not ask for.
int formatFlag(const ZXing::Barcode &result);
ZXing::Barcodes readBarcodes(const cv::Mat &gray, const ZXing::ReaderOptions &options);
/// An EAN-13 or UPC-A that `result` read without an add-on, read again with the add-on required, in the part of
/// `gray` where an add-on beside it would be (`wholeImage`: all of `gray`, a cut of the code). zxing-cpp's
/// EanAddOnSymbol::Read takes the first row on which the main symbol decodes; an add-on (shorter bars, its own
/// quiet zone) may decode only on other rows, which Require goes on to scan. Returns the new read and the offset
/// of its position in `gray`, or nothing when no add-on with the same main digits is there.
std::optional<std::pair<ZXing::Barcode, cv::Point2f>> readAddOn(const cv::Mat &gray, const ZXing::Barcode &result,
                                                                const ZXing::ReaderOptions &options, bool wholeImage);
/// The same for a read whose ends on its line (`left`, `right`: the first and last bar) are in `gray`'s pixels
/// where its position is not (a read of a view that skips lines).
std::optional<std::pair<ZXing::Barcode, cv::Point2f>> readAddOn(const cv::Mat &gray, const ZXing::Barcode &result,
                                                                cv::Point2f left, cv::Point2f right,
                                                                const ZXing::ReaderOptions &options, bool wholeImage);
/// The ends of a read's line (its top edge: the first and last bar), in the pixels its position is in.
std::pair<cv::Point2f, cv::Point2f> lineEnds(const ZXing::Position &position);
/// A result's corners moved by `offset`, then times `scale`.
CB_Quad quadOf(const ZXing::Position &position, cv::Point2f offset, double scale);

/// A linear code read on a share of an image's lines: zxing-cpp's result and its corners (top left, top right,
/// bottom right, bottom left) in the image's pixels.
struct LineRead {
    ZXing::Barcode barcode;
    std::array<cv::Point2f, 4> corners;
};
/// Whether reading `gray`, a region of a picture of `picture`'s size, along the picture's lines would scan fewer of
/// them than zxing-cpp scans of the region itself (which it spaces by the region's size; BarcodeLines.cpp).
bool picturesLinesAreSparser(cv::Size region, cv::Size picture, bool tryRotate);
/// The linear codes `options` asks for in `gray`, a region of a picture of `picture`'s size, read along its rows
/// and (`tryRotate`) columns as zxing-cpp spaces them in the whole picture, not in the region: a region of a
/// frame is read on the lines a read of the whole frame crosses it with. zxing-cpp spaces a region's by the
/// region's size, every row and column of a small one: a region of a 720p frame was read along twice as many
/// columns as the frame.
std::vector<LineRead> readAlongPicturesLines(const cv::Mat &gray, cv::Size picture, ZXing::ReaderOptions options,
                                             bool tryRotate);

/// Drops the partial reads among `barcodes` (SameBars.cpp): a linear read whose text is part of another's of the
/// same format, on that one's bars. Frees them; `count` becomes what is left.
void dropPartialReads(CB_Barcode *barcodes, size_t &count);
/// Of linear reads of one format that spell different codes on the same bars (SameBars.cpp), drops the one the
/// bars carry less: read alike on under half as many of zxing-cpp's scan lines or, when their line counts are
/// closer, on fewer bands across the bars' height in `gray` (the whole image the quads are in). Frees them;
/// `count` becomes what is left.
void dropOutvotedReads(const cv::Mat &gray, CB_Barcode *barcodes, size_t &count, bool tryInvert);

/// A linear code cut out of a picture upright for zxing-cpp (TurnedLinear.cpp): its bars vertical, its length
/// along the rows.
struct UprightCut {
    cv::Mat pixels;
    /// Maps a pixel of the cut (x, y, 1) to the picture's.
    cv::Matx23d toImage;
};
/// Cuts out of `gray` the code centred on `centre` whose bars run `length` pixels along the unit vector `lengthwise`
/// and `height` pixels across it, with a quiet zone on both ends of 12 % of its length, at least `minQuietZone`; a
/// cut under 400 pixels long enlarged up to 3 times, its height alike but to at most 80 rows. At least `minRows`
/// rows: a lower code's cut goes on above and below its bars.
UprightCut cutUpright(const cv::Mat &gray, cv::Point2d centre, cv::Point2d lengthwise, double length, double height,
                      double minQuietZone, int minRows);

/// Linear codes of the `wanted` CB_Format flags at any angle (TurnedLinear.cpp): candidates found by the coherence
/// of their gradients, each cut out upright and read by zxing-cpp; one whose centre holds a code `barcodes`
/// already has is skipped. Appends what it reads, its quads in `gray`'s pixels times `scale` (as the list's).
void readTurnedLinearCodes(const cv::Mat &gray, int wanted, bool tryInvert, double scale, BarcodeList &barcodes);

}  // namespace cbridge
