#include "BarcodeResults.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <cstdlib>

extern "C" CB_Status CB_QR_locate_and_decode(const CB_Image *image, CB_Barcode **out_barcodes, size_t *out_count) {
    CB_TRY
    CB_REQUIRE(image != nullptr && out_barcodes != nullptr && out_count != nullptr,
               "CB_QR_locate_and_decode: NULL argument");
    *out_barcodes = nullptr;
    *out_count = 0;
    const cv::Mat &gray = image->gray();
    std::vector<cv::Point2f> corners;
    cv::QRCodeDetector locator;
    if (!locator.detectMulti(gray, corners) || corners.size() % 4 != 0) {
        return CB_OK;
    }
    // Rectify each located quad into an upright square with a white quiet zone, then let zxing decode it:
    // Debian's OpenCV has no QUIRC, so QRCodeDetector::decode always fails.
    constexpr float side = 330, margin = 40;
    const cv::Point2f upright[4] = {{margin, margin},
                                    {margin + side, margin},
                                    {margin + side, margin + side},
                                    {margin, margin + side}};
    const auto options = cbridge::readerOptions(CB_FORMAT_QRCODE, true, false, false);
    cbridge::BarcodeList barcodes(CB_FORMAT_QRCODE);
    for (size_t first = 0; first < corners.size(); first += 4) {
        const cv::Mat transform = cv::getPerspectiveTransform(&corners[first], upright);
        cv::Mat square;
        cv::warpPerspective(gray, square, transform, cv::Size(int(side + 2 * margin), int(side + 2 * margin)),
                            cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar(255));
        CB_Quad quad;
        for (int corner = 0; corner < 4; ++corner) {
            quad.x[corner] = corners[first + corner].x;
            quad.y[corner] = corners[first + corner].y;
        }
        for (const auto &result : cbridge::readBarcodes(square, options)) {
            if (result.isValid()) {
                barcodes.append(result, 1, &quad);
                break;
            }
        }
    }
    return barcodes.release(out_barcodes, out_count);
    CB_CATCH
}

extern "C" CB_Status CB_QR_locate(const CB_Image *image, CB_Quad **out_quads, size_t *out_count) {
    CB_TRY
    CB_REQUIRE(image != nullptr && out_quads != nullptr && out_count != nullptr, "CB_QR_locate: NULL argument");
    *out_quads = nullptr;
    *out_count = 0;
    std::vector<cv::Point2f> corners;
    cv::QRCodeDetector locator;
    if (!locator.detectMulti(image->gray(), corners) || corners.size() % 4 != 0) {
        return CB_OK;
    }
    const size_t count = corners.size() / 4;
    auto *quads = static_cast<CB_Quad *>(std::calloc(count, sizeof(CB_Quad)));
    CB_REQUIRE(quads != nullptr, "out of memory");
    for (size_t index = 0; index < count; ++index) {
        for (int corner = 0; corner < 4; ++corner) {
            quads[index].x[corner] = corners[index * 4 + corner].x;
            quads[index].y[corner] = corners[index * 4 + corner].y;
        }
    }
    *out_quads = quads;
    *out_count = count;
    return CB_OK;
    CB_CATCH
}

extern "C" void CB_Quads_free(CB_Quad *quads) { std::free(quads); }
