// FFmpeg's values as MediaDecoder's two halves read them (MediaDecoder.cpp opens a source, MediaDecoderFrames.cpp
// reads its frames).
#pragma once

extern "C" {
#include <libavutil/error.h>
#include <libavutil/rational.h>
}

#include <string>

namespace cbridge {

/// FFmpeg's message for an AVERROR code.
inline std::string describeAVError(int error) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(error, text, sizeof text);
    return text;
}

/// A rational as a double, 0 for an unknown one (0/0, x/0).
inline double toDouble(AVRational value) { return value.num == 0 || value.den == 0 ? 0.0 : av_q2d(value); }

}  // namespace cbridge
