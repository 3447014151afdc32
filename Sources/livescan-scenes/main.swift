// livescan-scenes: renders LiveScan's synthetic scenes (videos and stills) with their ground truth.
import Foundation
import LiveScanScenes

let usage = """
    Usage: livescan-scenes video PRESET OUT.(mp4|mkv|mov|avi) [--truth TRUTH.json] [--frames N]
           livescan-scenes still PRESET OUT.(png|jpg|bmp) [--truth TRUTH.json] [--frame K]
           livescan-scenes list
           livescan-scenes --help | --version
    """

let help = """
    livescan-scenes renders synthetic scenes with exact ground truth, for the demo, the tests and the tracking
    benchmark. The same preset always renders the same pixels.

    \(usage)

    Subcommands:
      video    Render every frame of PRESET into a video. The extension picks the codec: .mp4, .mkv, .mov
               -> H.264 (FourCC avc1, MPEG-4 Part 2 if H.264 is unavailable); .avi -> Motion JPEG.
      still    Render one frame of PRESET (frame 0 unless --frame) into an image.
      list     List the presets.

    Options:
      --truth PATH   Also write the ground truth as JSON (see GroundTruth in LiveScanScenes).
      --frames N     Render N frames instead of the preset's count (video only).
      --frame K      Render frame K, 0-based (still only).
      -h, --help     Show this help.
      --version      Show the version.

    Exit status: 0 success, 1 a file could not be written or rendering failed, 2 bad usage.
    """

let version = "livescan-scenes 0.1.0"

/// A usage error (exit 2) or a failure to render or write (exit 1).
enum Failure: Error {
    case usage(String)
    case runtime(String)
}

struct Options {
    var subcommand: String
    var positionals: [String] = []
    var truthPath: String?
    var frameCount: Int?
    var frameIndex: Int?
}

func parse(_ arguments: [String]) throws -> Options {
    guard let subcommand = arguments.first else {
        throw Failure.usage("missing subcommand")
    }
    var options = Options(subcommand: subcommand)
    var index = 1
    func value(of flag: String) throws -> String {
        index += 1
        guard index < arguments.count else {
            throw Failure.usage("\(flag) needs a value")
        }
        return arguments[index]
    }
    func count(of flag: String, minimum: Int) throws -> Int {
        let text = try value(of: flag)
        guard let number = Int(text), number >= minimum, number <= 1_000_000 else {
            throw Failure.usage("\(flag) must be a whole number from \(minimum) to 1000000, not '\(text)'")
        }
        return number
    }
    while index < arguments.count {
        let argument = arguments[index]
        switch argument {
        case "--truth": options.truthPath = try value(of: argument)
        case "--frames": options.frameCount = try count(of: argument, minimum: 1)
        case "--frame": options.frameIndex = try count(of: argument, minimum: 0)
        default:
            guard !argument.hasPrefix("-") || argument == "-" else {
                throw Failure.usage("unknown option '\(argument)'")
            }
            options.positionals.append(argument)
        }
        index += 1
    }
    return options
}

func preset(named name: String) throws -> Scene {
    guard let preset = ScenePreset(rawValue: name) else {
        let names = ScenePreset.allCases.map(\.rawValue).joined(separator: ", ")
        throw Failure.usage("unknown preset '\(name)' (one of: \(names))")
    }
    return preset.scene
}

func requireExtension(of path: String, in allowed: [String], for subcommand: String) throws {
    let pathExtension = URL(fileURLWithPath: path).pathExtension.lowercased()
    guard allowed.contains(pathExtension) else {
        throw Failure.usage("\(subcommand) writes .\(allowed.joined(separator: ", .")) files, not '\(path)'")
    }
}

func runVideo(_ options: Options) throws {
    guard options.positionals.count == 2 else {
        throw Failure.usage("video needs PRESET and OUT")
    }
    guard options.frameIndex == nil else {
        throw Failure.usage("--frame applies to still; use --frames N for video")
    }
    var scene = try preset(named: options.positionals[0])
    let output = options.positionals[1]
    try requireExtension(of: output, in: ["mp4", "mkv", "mov", "avi"], for: "video")
    if let frameCount = options.frameCount {
        scene.frameCount = frameCount
    }
    let renderer = try SceneRenderer(scene: scene)
    let fourcc = try renderer.writeVideo(to: output)
    print("wrote \(output): \(scene.frameCount) frames, \(scene.width)x\(scene.height), \(scene.fps) fps, \(fourcc)")
    if let truthPath = options.truthPath {
        try renderer.groundTruth().write(to: truthPath)
        print("wrote \(truthPath)")
    }
}

func runStill(_ options: Options) throws {
    guard options.positionals.count == 2 else {
        throw Failure.usage("still needs PRESET and OUT")
    }
    guard options.frameCount == nil else {
        throw Failure.usage("--frames applies to video; use --frame K for still")
    }
    let scene = try preset(named: options.positionals[0])
    let output = options.positionals[1]
    try requireExtension(of: output, in: ["png", "jpg", "jpeg", "bmp"], for: "still")
    let frame = options.frameIndex ?? 0
    guard frame < scene.frameCount else {
        throw Failure.usage("--frame must be below \(scene.frameCount) for \(scene.name)")
    }
    let renderer = try SceneRenderer(scene: scene)
    try renderer.writeImage(frame: frame, to: output)
    print("wrote \(output): frame \(frame) of \(scene.name), \(scene.width)x\(scene.height)")
    if let truthPath = options.truthPath {
        try renderer.groundTruth(frames: frame..<frame + 1).write(to: truthPath)
        print("wrote \(truthPath)")
    }
}

func runList(_ options: Options) throws {
    guard options.positionals.isEmpty, options.truthPath == nil, options.frameCount == nil,
        options.frameIndex == nil
    else {
        throw Failure.usage("list takes no arguments")
    }
    let width = ScenePreset.allCases.map(\.rawValue.count).max() ?? 0
    for preset in ScenePreset.allCases {
        print(preset.rawValue.padding(toLength: width + 2, withPad: " ", startingAt: 0) + preset.summary)
    }
}

func fail(_ message: String, status: Int32, showUsage: Bool) -> Never {
    var text = "Error: \(message)\n"
    if showUsage {
        text += usage + "\nSee 'livescan-scenes --help'.\n"
    }
    FileHandle.standardError.write(Data(text.utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("-h") || arguments.contains("--help") {
    print(help)
    exit(0)
}
if arguments == ["--version"] {
    print(version)
    exit(0)
}
do {
    let options = try parse(arguments)
    switch options.subcommand {
    case "video": try runVideo(options)
    case "still": try runStill(options)
    case "list": try runList(options)
    default: throw Failure.usage("unknown subcommand '\(options.subcommand)'")
    }
} catch Failure.usage(let message) {
    fail(message, status: 2, showUsage: true)
} catch Failure.runtime(let message) {
    fail(message, status: 1, showUsage: false)
} catch let error as SceneError {
    fail(error.description, status: 1, showUsage: false)
} catch {
    fail("\(error)", status: 1, showUsage: false)
}
