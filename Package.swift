// swift-tools-version:6.0
import PackageDescription

// OpenCV is linked module by module: `pkg-config --libs opencv4` names all 55 modules, and loading
// them costs 0.35-0.65 s at every process start. imgcodecs and videoio (GDAL and GStreamer come with them, 0.11 s
// more) are not linked: CBridge loads them when an image file, camera or annotated output first needs them
// (CBridge/OpenCVOnDemand.hpp). Its headers' folder comes through `COpenCV` (`livescan-opencv.pc`, written by
// scripts/setup.sh): no unsafe flags, so LiveScan can be a versioned dependency.
let openCVModules = ["opencv_core", "opencv_imgproc", "opencv_objdetect"]
// FFmpeg 5.1 decodes video files and streams for CBridge's MediaDecoder; its headers are in
// /usr/include/x86_64-linux-gnu, which the compiler searches by default.
let ffmpegLibraries = ["avformat", "avcodec", "avutil", "swscale"]

let package = Package(
    name: "LiveScan",
    products: [
        .library(name: "LiveScan", targets: ["LiveScan"]),
        // The pure-Swift core alone: items, tracking and the event log (schema, reader, report), no C library.
        .library(name: "LiveScanCore", targets: ["LiveScanCore"]),
        .executable(name: "livescan", targets: ["livescan"]),
    ],
    targets: [
        .systemLibrary(name: "CTesseract", path: "SystemLibraries/CTesseract", pkgConfig: "tesseract"),
        .systemLibrary(name: "COpenCV", path: "SystemLibraries/COpenCV", pkgConfig: "livescan-opencv"),
        // zxing-cpp 3.1.1, static, built from upstream's source by scripts/setup.sh (Debian 12 packages only 1.4).
        .systemLibrary(name: "ZXingCpp", path: "SystemLibraries/ZXingCpp", pkgConfig: "livescan-zxing"),
        .target(
            name: "CBridge",
            dependencies: ["COpenCV", "CTesseract", "ZXingCpp"],
            path: "CBridge",
            linkerSettings: (openCVModules + ffmpegLibraries).map { .linkedLibrary($0) }
        ),
        // Layers the compiler keeps: LiveScanCore (Model, Tracking, the event log) imports nothing but Foundation;
        // LiveScan (Bridge, Scanner, Annotation) is built on it and on CBridge, and re-exports it.
        .target(name: "LiveScanCore", path: "Sources/LiveScanCore"),
        .target(name: "LiveScan", dependencies: ["LiveScanCore", "CBridge"], path: "Sources/LiveScan"),
        // `livescan scan --serve`'s HTTP side, in C over Debian's libmicrohttpd: the command's alone, so the
        // library does not link an HTTP server.
        .target(name: "CLiveViewServer", path: "CLiveViewServer", linkerSettings: [.linkedLibrary("microhttpd")]),
        .executableTarget(name: "livescan", dependencies: ["LiveScan", "CLiveViewServer"], path: "Sources/livescan"),

        // Synthetic scenes with exact ground truth, for the demo, the tests and the benchmarks.
        .target(
            name: "SceneRender",
            dependencies: ["COpenCV", "ZXingCpp"],
            path: "SceneRender",
            linkerSettings: (openCVModules + ["opencv_imgcodecs", "opencv_freetype", "m"]).map { .linkedLibrary($0) }
        ),
        // Video files are written with LiveScan's own writer; everything drawn is SceneRender's. No product: its
        // API is `package`, for this package's demo, benchmarks and tests alone.
        .target(name: "LiveScanScenes", dependencies: ["SceneRender", "LiveScan"], path: "Sources/LiveScanScenes"),
        .executableTarget(name: "livescan-scenes", dependencies: ["LiveScanScenes"], path: "Sources/livescan-scenes"),

        .executableTarget(
            name: "livescan-bench-engines",
            dependencies: ["LiveScan", "LiveScanScenes"],
            path: "Benchmarks/engines"
        ),

        // What the test targets share: observation makers and frames without an image library.
        .target(name: "LiveScanTestSupport", dependencies: ["LiveScanCore"], path: "Tests/Support"),
        .testTarget(name: "LiveScanCoreTests", dependencies: ["LiveScanCore", "LiveScanTestSupport"],
                    path: "Tests/LiveScanCoreTests"),
        .testTarget(name: "LiveScanTests", dependencies: ["LiveScan", "LiveScanTestSupport"],
                    path: "Tests/LiveScanTests"),
        .testTarget(
            name: "BridgeTests",
            // CBridge too: a few tests call the C API directly, as a C caller would.
            dependencies: ["LiveScan", "LiveScanScenes", "CBridge", "LiveScanTestSupport"],
            path: "Tests/BridgeTests",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["livescan", "LiveScan", "LiveScanScenes", "LiveScanTestSupport"],
            path: "Tests/CLITests",
            exclude: ["Fixtures"]
        ),
    ],
    cxxLanguageStandard: .cxx17
)
