#include "Internal.hpp"
#include "OpenCVOnDemand.hpp"

#include <opencv2/imgcodecs.hpp>  // cv::IMWRITE_JPEG_QUALITY only: imgcodecs is loaded on demand
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

CB_Image::CB_Image(cv::Mat bgr) : width_(bgr.cols), height_(bgr.rows), bgr_(std::move(bgr)) {}

CB_Image *CB_Image::fromI420(cv::Mat luma, cv::Mat blue, cv::Mat red, std::shared_ptr<const void> owner) {
    const cv::Size chroma(luma.cols / 2, luma.rows / 2);
    CV_Assert(luma.type() == CV_8UC1 && blue.type() == CV_8UC1 && red.type() == CV_8UC1 && luma.cols % 2 == 0 &&
              luma.rows % 2 == 0 && blue.size() == chroma && red.size() == chroma);
    auto *image = new CB_Image();
    image->width_ = luma.cols;
    image->height_ = luma.rows;
    image->luma_ = std::move(luma);
    image->blue_ = std::move(blue);
    image->red_ = std::move(red);
    image->owner_ = std::move(owner);
    return image;
}

CB_Image *CB_Image::fromGray(cv::Mat gray) {
    CV_Assert(gray.type() == CV_8UC1);
    auto *image = new CB_Image();
    image->width_ = gray.cols;
    image->height_ = gray.rows;
    image->gray_ = std::move(gray);
    return image;
}

const cv::Mat &CB_Image::bgr() const {
    std::call_once(bgrMade_, [this] {
        if (!bgr_.empty()) {
            return;
        }
        if (!luma_.empty()) {
            // OpenCV converts I420 from one Mat, planes back to back.
            cv::Mat packed(height_ * 3 / 2, width_, CV_8UC1);
            const size_t lumaSize = static_cast<size_t>(width_) * height_, chromaSize = lumaSize / 4;
            luma_.copyTo(cv::Mat(height_, width_, CV_8UC1, packed.data));
            blue_.copyTo(cv::Mat(blue_.size(), CV_8UC1, packed.data + lumaSize));
            red_.copyTo(cv::Mat(red_.size(), CV_8UC1, packed.data + lumaSize + chromaSize));
            cv::cvtColor(packed, bgr_, cv::COLOR_YUV2BGR_I420);
        } else {
            cv::cvtColor(gray_, bgr_, cv::COLOR_GRAY2BGR);
        }
    });
    return bgr_;
}

const cv::Mat &CB_Image::uprightGray() const {
    if (orientation.isUpright()) {
        return gray();
    }
    std::call_once(uprightGrayMade_, [this] { uprightGray_ = orientation.upright(gray()); });
    return uprightGray_;
}

const cv::Mat &CB_Image::gray() const {
    std::call_once(grayMade_, [this] {
        if (!gray_.empty()) {
            return;
        }
        if (!luma_.empty()) {
            // Video range to full range: thresholds and contrast downstream were set on BGR-converted grey. As
            // a scale and offset: the same bytes as a table of saturate_cast((level - 16) * 255 / 219) for all
            // 256 levels (no level lands within float error of a half), in a third of cv::LUT's CPU time
            // (0.10 against 0.31 ms a 720p frame on one thread; cv::LUT splits it over two).
            constexpr double scale = 255.0 / 219.0;
            luma_.convertTo(gray_, CV_8U, scale, -16 * scale);
        } else {
            cv::cvtColor(bgr_, gray_, cv::COLOR_BGR2GRAY);
        }
    });
    return gray_;
}

namespace {

/// The block means of `gray`'s whole `cell` x `cell` cells, summed in one pass on the calling thread: the rows of
/// a band of cells are added column by column (a loop the compiler vectorises), then each cell's columns. The same
/// bytes as cv::resize's INTER_AREA at 16 px cells (checked on noise and blurred noise; its 2 px path rounds
/// otherwise) in a third of its time, without its parallel stripes. The column sums are 16-bit: a column of a cell
/// of at most 256 rows (CB_Image_cell_means's limit) sums to at most 256 x 255 = 65280, and twice as many fit in a
/// vector register as at 32 bits: 0.05-0.10 against 0.09-0.18 ms for a 720p frame.
cv::Mat blockMeans(const cv::Mat &gray, int cell) {
    CV_Assert(cell >= 1 && cell <= 256);
    const int columns = gray.cols / cell;
    const int rows = gray.rows / cell;
    const int width = columns * cell;
    cv::Mat means(rows, columns, CV_8UC1);
    const uint32_t area = static_cast<uint32_t>(cell * cell);
    std::vector<uint16_t> columnSums(static_cast<size_t>(width));
    uint16_t *sums = columnSums.data();
    for (int row = 0; row < rows; ++row) {
        std::fill(sums, sums + width, uint16_t{0});
        for (int y = row * cell; y < (row + 1) * cell; ++y) {
            const uint8_t *pixels = gray.ptr<uint8_t>(y);
            for (int x = 0; x < width; ++x) {
                sums[x] = static_cast<uint16_t>(sums[x] + pixels[x]);
            }
        }
        uint8_t *out = means.ptr<uint8_t>(row);
        for (int column = 0; column < columns; ++column) {
            uint32_t sum = 0;
            for (int x = column * cell; x < (column + 1) * cell; ++x) {
                sum += sums[x];
            }
            // Half to even, as cvRound.
            uint32_t mean = sum / area;
            const uint32_t twiceRest = 2 * (sum % area);
            mean += twiceRest > area || (twiceRest == area && mean % 2 == 1) ? 1 : 0;
            out[column] = static_cast<uint8_t>(mean);
        }
    }
    return means;
}

}  // namespace

cv::Mat CB_Image::cellMeans(int cell) const {
    std::call_once(cellMeansMade_, [&] {
        cellMeans_ = blockMeans(gray(), cell);
        cellMeansCell_ = cell;
    });
    return cellMeansCell_ == cell ? cellMeans_ : blockMeans(gray(), cell);
}

cv::Mat cbridge::resized(const cv::Mat &source, double factor, int interpolation) {
    const cv::Size size(std::max(1, static_cast<int>(std::lround(source.cols * factor))),
                        std::max(1, static_cast<int>(std::lround(source.rows * factor))));
    cv::Mat result;
    cv::resize(source, result, size, 0, 0, interpolation);
    return result;
}

extern "C" CB_Status CB_Image_new(const uint8_t *pixels, int width, int height, int channels, int stride,
                                  CB_Image **out_image) {
    CB_TRY
    CB_REQUIRE(pixels != nullptr && out_image != nullptr, "CB_Image_new: NULL pixels");
    CB_REQUIRE(width > 0 && height > 0 && width <= 32768 && height <= 32768, "CB_Image_new: size out of range");
    CB_REQUIRE(channels == 1 || channels == 3 || channels == 4, "CB_Image_new: channels must be 1, 3 or 4");
    CB_REQUIRE(stride >= width * channels, "CB_Image_new: stride smaller than a row");
    *out_image = nullptr;
    // The caller keeps its buffer: wrap without copying, then convert or clone into our own Mat.
    cv::Mat borrowed(height, width, CV_8UC(channels), const_cast<uint8_t *>(pixels), static_cast<size_t>(stride));
    cv::Mat bgr;
    if (channels == 1) {
        cv::cvtColor(borrowed, bgr, cv::COLOR_GRAY2BGR);
    } else if (channels == 4) {
        cv::cvtColor(borrowed, bgr, cv::COLOR_BGRA2BGR);
    } else {
        bgr = borrowed.clone();
    }
    *out_image = new CB_Image(std::move(bgr));
    return CB_OK;
    CB_CATCH
}

extern "C" void CB_Image_delete(CB_Image *image) { delete image; }

extern "C" int CB_Image_width(const CB_Image *image) { return image == nullptr ? 0 : image->width(); }

extern "C" int CB_Image_height(const CB_Image *image) { return image == nullptr ? 0 : image->height(); }

extern "C" CB_Quad CB_Image_upright_outline(const CB_Image *image) {
    CB_Quad outline{};
    if (image == nullptr) {
        return outline;
    }
    const cv::Size stored(image->width(), image->height());
    const bool turned = image->orientation.exif >= 5;  // a quarter turn or a transposition swaps the sides
    const cv::Size upright = turned ? cv::Size(stored.height, stored.width) : stored;
    const CB_Quad corners = cbridge::quadOf(cv::Rect2f(0, 0, float(upright.width), float(upright.height)));
    for (int corner = 0; corner < 4; ++corner) {
        const cv::Point2f point =
            image->orientation.toStored(cv::Point2f(corners.x[corner], corners.y[corner]), stored);
        outline.x[corner] = point.x;
        outline.y[corner] = point.y;
    }
    return outline;
}

extern "C" CB_Status CB_Image_copy_gray(const CB_Image *image, uint8_t *out, size_t capacity) {
    CB_TRY
    CB_REQUIRE(image != nullptr && out != nullptr, "CB_Image_copy_gray: NULL argument");
    const auto needed = static_cast<size_t>(image->width()) * static_cast<size_t>(image->height());
    CB_REQUIRE(capacity >= needed, "CB_Image_copy_gray: buffer too small");
    cv::Mat gray(image->height(), image->width(), CV_8UC1, out);
    image->gray().copyTo(gray);
    return CB_OK;
    CB_CATCH
}

extern "C" CB_Status CB_Image_cell_means(const CB_Image *image, int cell, uint8_t *out, size_t capacity,
                                         int *out_columns, int *out_rows) {
    CB_TRY
    CB_REQUIRE(image != nullptr && out != nullptr && out_columns != nullptr && out_rows != nullptr,
               "CB_Image_cell_means: NULL argument");
    CB_REQUIRE(cell >= 2 && cell <= 256, "CB_Image_cell_means: cell must be 2...256 pixels");
    const int columns = image->width() / cell;
    const int rows = image->height() / cell;
    CB_REQUIRE(capacity >= static_cast<size_t>(columns) * static_cast<size_t>(rows),
               "CB_Image_cell_means: buffer too small");
    *out_columns = columns;
    *out_rows = rows;
    if (columns == 0 || rows == 0) {
        return CB_OK;
    }
    const cv::Mat means = image->cellMeans(cell);
    std::memcpy(out, means.data, static_cast<size_t>(columns) * static_cast<size_t>(rows));
    return CB_OK;
    CB_CATCH
}

extern "C" CB_Status CB_Image_cell_detail(const CB_Image *image, int columns, int rows, float *out, size_t capacity) {
    CB_TRY
    CB_REQUIRE(image != nullptr && out != nullptr, "CB_Image_cell_detail: NULL argument");
    CB_REQUIRE(columns >= 1 && columns <= 64 && rows >= 1 && rows <= 64,
               "CB_Image_cell_detail: columns and rows must be 1...64");
    const size_t cells = static_cast<size_t>(columns) * static_cast<size_t>(rows);
    CB_REQUIRE(capacity >= cells, "CB_Image_cell_detail: buffer too small");
    // On the sums of 4 x 4 blocks (their means times 16): a camera's pixel noise, which blur does not take away (it
    // comes after the lens), averages out there, and print, edges and texture stay. Three rows of block sums are
    // kept, each made from 4 rows of pixels; each grid cell's stretch of a row is summed in one loop, which the
    // compiler vectorises: about 0.1 ms for a 720p frame.
    constexpr int block = 4;
    const cv::Mat &gray = image->gray();
    const int blockColumns = gray.cols / block, blockRows = gray.rows / block;
    std::vector<int64_t> sums(cells, 0), counts(cells, 0);
    if (blockColumns >= 3 && blockRows >= 3) {
        const int width = blockColumns * block;
        std::vector<uint16_t> columnSums(static_cast<size_t>(width));
        std::array<std::vector<int32_t>, 3> rowsOfSums;
        for (auto &row : rowsOfSums) row.assign(static_cast<size_t>(blockColumns), 0);
        const auto blockRow = [&](int index, std::vector<int32_t> &into) {
            const uint8_t *first = gray.ptr<uint8_t>(index * block), *second = gray.ptr<uint8_t>(index * block + 1);
            const uint8_t *third = gray.ptr<uint8_t>(index * block + 2), *fourth = gray.ptr<uint8_t>(index * block + 3);
            uint16_t *column = columnSums.data();
            for (int x = 0; x < width; ++x) {
                column[x] = static_cast<uint16_t>(first[x] + second[x] + third[x] + fourth[x]);
            }
            for (int x = 0; x < blockColumns; ++x) {
                const uint16_t *four = column + x * block;
                into[static_cast<size_t>(x)] = int32_t(four[0]) + four[1] + four[2] + four[3];
            }
        };
        blockRow(0, rowsOfSums[0]);
        blockRow(1, rowsOfSums[1]);
        for (int y = 1; y + 1 < blockRows; ++y) {
            const int32_t *above = rowsOfSums[static_cast<size_t>((y - 1) % 3)].data();
            const int32_t *row = rowsOfSums[static_cast<size_t>(y % 3)].data();
            std::vector<int32_t> &next = rowsOfSums[static_cast<size_t>((y + 1) % 3)];
            blockRow(y + 1, next);
            const int32_t *below = next.data();
            const size_t cellRow = static_cast<size_t>(y * rows / blockRows) * static_cast<size_t>(columns);
            for (int column = 0; column < columns; ++column) {
                // The block columns x with x * columns / blockColumns == column, inside the frame's border.
                const int from = std::max(1, (column * blockColumns + columns - 1) / columns);
                const int to = std::min(blockColumns - 1, ((column + 1) * blockColumns + columns - 1) / columns);
                int32_t sum = 0;
                for (int x = from; x < to; ++x) {
                    const int32_t laplacian = 4 * row[x] - above[x] - below[x] - row[x - 1] - row[x + 1];
                    sum += laplacian < 0 ? -laplacian : laplacian;
                }
                sums[cellRow + static_cast<size_t>(column)] += sum;
                // Each a sum of 16 pixels: the means' Laplacian is a 16th of it.
                counts[cellRow + static_cast<size_t>(column)] += block * block * std::max(to - from, 0);
            }
        }
    }
    for (size_t cell = 0; cell < cells; ++cell) {
        out[cell] = counts[cell] > 0 ? float(double(sums[cell]) / double(counts[cell])) : 0.0f;
    }
    return CB_OK;
    CB_CATCH
}

extern "C" CB_Status CB_Image_copy_resized_rgb(const CB_Image *image, int width, int height, uint8_t *out,
                                               size_t capacity) {
    CB_TRY
    CB_REQUIRE(image != nullptr && out != nullptr, "CB_Image_copy_resized_rgb: NULL argument");
    CB_REQUIRE(width > 0 && height > 0 && width <= 32768 && height <= 32768,
               "CB_Image_copy_resized_rgb: size out of range");
    CB_REQUIRE(capacity >= static_cast<size_t>(width) * static_cast<size_t>(height) * 3,
               "CB_Image_copy_resized_rgb: buffer too small");
    cv::Mat small;
    cv::resize(image->bgr(), small, cv::Size(width, height), 0, 0, cv::INTER_AREA);
    // Converted straight into the caller's buffer: a Mat of its size and type over it is written, not replaced.
    cv::Mat rgb(height, width, CV_8UC3, out);
    cv::cvtColor(small, rgb, cv::COLOR_BGR2RGB);
    CV_Assert(rgb.data == out);
    return CB_OK;
    CB_CATCH
}

namespace {

/// Writes `bytes` to a new file at `path` (replacing one there), every write and the closing checked; the reason
/// when one fails (a full disk: "No space left on device"), else nothing.
std::optional<std::string> writeFile(const char *path, const std::vector<uchar> &bytes) {
    const int file = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (file < 0) {
        return std::strerror(errno);
    }
    size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t count = ::write(file, bytes.data() + written, bytes.size() - written);
        if (count < 0 && errno == EINTR) {
            continue;
        }
        if (count <= 0) {
            const std::string reason = count < 0 ? std::strerror(errno) : "nothing was written";
            ::close(file);
            return reason;
        }
        written += static_cast<size_t>(count);
    }
    // NFS and some full disks report a failed write only when the file is closed.
    if (::close(file) != 0) {
        return std::strerror(errno);
    }
    return std::nullopt;
}

}  // namespace

extern "C" CB_Status CB_Image_write(const CB_Image *image, const char *path) {
    CB_TRY
    CB_REQUIRE(image != nullptr && path != nullptr && *path != '\0', "CB_Image_write: NULL argument");
    const char *dot = std::strrchr(path, '.');
    const char *slash = std::strrchr(path, '/');
    if (dot == nullptr || (slash != nullptr && dot < slash)) {
        return cbridge::fail(CB_INVALID_ARGUMENT, std::string("no image format for '") + path + "'");
    }
    // Encoded in memory, then written with every write checked: cv::imwrite checks none.
    const std::vector<uchar> bytes = cbridge::encodeImage(dot, image->bgr());
    if (const auto failure = writeFile(path, bytes)) {
        return cbridge::fail(CB_OPEN_FAILED, *failure);
    }
    return CB_OK;
    CB_CATCH
}

extern "C" CB_Status CB_Image_encode_jpeg(const CB_Image *image, int max_width, int quality, uint8_t **out_bytes,
                                          size_t *out_count) {
    CB_TRY
    CB_REQUIRE(image != nullptr && out_bytes != nullptr && out_count != nullptr, "CB_Image_encode_jpeg: NULL argument");
    CB_REQUIRE(max_width >= 0 && quality >= 1 && quality <= 100,
               "CB_Image_encode_jpeg: max_width must be >= 0 and quality 1...100");
    *out_bytes = nullptr;
    *out_count = 0;
    cv::Mat picture = image->bgr();
    if (max_width > 0 && picture.cols > max_width) {
        picture = cbridge::resized(picture, static_cast<double>(max_width) / picture.cols, cv::INTER_AREA);
    }
    const std::vector<uchar> bytes = cbridge::encodeImage(".jpg", picture, {cv::IMWRITE_JPEG_QUALITY, quality});
    auto *copy = static_cast<uint8_t *>(std::malloc(bytes.empty() ? 1 : bytes.size()));
    if (copy == nullptr) {
        return cbridge::fail(CB_ENGINE_FAILED, "CB_Image_encode_jpeg: out of memory");
    }
    std::memcpy(copy, bytes.data(), bytes.size());
    *out_bytes = copy;
    *out_count = bytes.size();
    return CB_OK;
    CB_CATCH
}

extern "C" void CB_Bytes_free(uint8_t *bytes) { std::free(bytes); }

extern "C" CB_Status CB_Image_sharpness(const CB_Image *image, double *out_sharpness) {
    CB_TRY
    CB_REQUIRE(image != nullptr && out_sharpness != nullptr, "CB_Image_sharpness: NULL argument");
    cv::Mat gray = image->gray();
    if (gray.cols > 640) {
        gray = cbridge::resized(gray, 640.0 / gray.cols, cv::INTER_AREA);
    }
    cv::Mat laplacian;
    cv::Laplacian(gray, laplacian, CV_32F);
    cv::Scalar mean, deviation;
    cv::meanStdDev(laplacian, mean, deviation);
    *out_sharpness = deviation[0] * deviation[0];
    return CB_OK;
    CB_CATCH
}
