internal import CBridge

/// The logs of the libraries under LiveScan (OpenCV, libtiff, libpng and libjpeg through OpenCV, FFmpeg).
public enum LibraryLogging {
    /// Silences their own warning lines for the whole process (`CB_silence_library_logs`), unless the user set
    /// `OPENCV_LOG_LEVEL` or `OPENCV_FFMPEG_LOGLEVEL`. Those lines print file names and URLs raw (a name can hold
    /// escape sequences) and repeat what LiveScan's errors say. Process-wide, so LiveScan never calls it itself:
    /// the `livescan` command does, at start; an app calls it if it wants the same.
    public static func silence() {
        CB_silence_library_logs()
    }
}
