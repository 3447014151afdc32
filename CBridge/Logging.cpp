#include "Internal.hpp"
#include "QuietCodecs.hpp"

extern "C" {
#include <libavutil/log.h>
}

#include <opencv2/core/utils/logger.hpp>

#include <cstdlib>

// OpenCV's FFmpeg backend reads OPENCV_FFMPEG_LOGLEVEL when it first initialises FFmpeg; CBridge's own decoder
// honours the same variable, so a user who set it still gets FFmpeg's log, and one who set OPENCV_LOG_LEVEL
// OpenCV's.
extern "C" void CB_silence_library_logs(void) {
    setenv("OPENCV_FFMPEG_LOGLEVEL", "-8", 0);  // AV_LOG_QUIET
    av_log_set_level(std::atoi(std::getenv("OPENCV_FFMPEG_LOGLEVEL")));
    if (std::getenv("OPENCV_LOG_LEVEL") == nullptr) {
        cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
        cbridge::silenceImageCodecs();
    }
}
