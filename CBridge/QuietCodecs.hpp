// The image decoders' own stderr lines (libpng, libjpeg under OpenCV's imgcodecs), silenced for the process: see
// QuietCodecs.cpp.
#pragma once

namespace cbridge {

/// From now on, every PNG and JPEG decoder imgcodecs creates prints nothing (CB_silence_library_logs).
void silenceImageCodecs();

/// Called after loading an OpenCV module: applies silenceImageCodecs to imgcodecs if it was asked for before
/// imgcodecs was loaded.
void imageCodecsMayHaveLoaded();

}  // namespace cbridge
