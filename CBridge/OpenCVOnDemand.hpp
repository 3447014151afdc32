// OpenCV's image-file (imgcodecs) and video I/O (videoio) modules, loaded when first used rather than when the
// process starts. Debian's imgcodecs links GDAL and videoio links GStreamer: with them, every `livescan` start
// relocated 270 shared libraries, about 0.11 s (an empty program linked as livescan was: 0.18 s to run, 0.07 s
// without these two). A scan of a video file or stream needs neither; an image file, an image sequence, a camera
// or annotated output loads them then.
#pragma once

#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>

#include <memory>
#include <string>
#include <vector>

namespace cbridge {

/// The file name of OpenCV's `module` library, e.g. libopencv_imgcodecs.so.406 for 4.6: Debian names it for the
/// major and minor version.
std::string moduleLibrary(const std::string &module);

/// cv::imdecode. Throws std::runtime_error (one line, naming the library) when imgcodecs cannot be loaded.
cv::Mat decodeImage(const std::vector<uchar> &bytes, int flags);

/// cv::imencode: `image` in the format `extension` (".png") names, with cv::imencode's `parameters`
/// (cv::IMWRITE_JPEG_QUALITY, 80). Throws as decodeImage, and std::runtime_error when OpenCV cannot encode it.
/// (cv::imwrite writes through stdio and checks no write: a PNG cut short by a full disk returned true.)
std::vector<uchar> encodeImage(const std::string &extension, const cv::Mat &image,
                               const std::vector<int> &parameters = {});

/// A new cv::VideoCapture made by videoio, closed. Deleting it calls its own (virtual) destructor in videoio;
/// every call on it goes through its virtual table, so nothing here links videoio. Throws as decodeImage when
/// videoio cannot be loaded.
std::unique_ptr<cv::VideoCapture> newVideoCapture();

}  // namespace cbridge
