import Foundation
import Testing
import LiveScanScenes

/// LiveScan as an app adds it: by URL and version. SwiftPM refuses such a dependency if any of its targets uses
/// unsafe flags (it did: `-I/usr/include/opencv4`); this builds a package that depends on the repository's
/// committed HEAD, tagged, and runs it: the README's example, which finds the learned models through
/// `LIVESCAN_MODELS` and says so when it cannot.
@Suite struct PackageDependencyTests {
    @Test func aPackageDependingOnLiveScanByURLAndVersionBuildsAndRuns() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let scratch = try ScratchFolder()
        defer { withExtendedLifetime(scratch) {} }  // the folder stays until the test is done with it
        let folder = scratch.url
        let clone = folder.appendingPathComponent("LiveScan"), app = folder.appendingPathComponent("app")
        let setup = try Shell.run("""
            set -e
            git clone -q "$0" "$1" && git -C "$1" tag 0.1.0
            mkdir -p "$2/Sources/app"
            """, arguments: [repository.path, clone.path, app.path])
        #expect(setup.status == 0, "\(setup.standardError)")
        try """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "app",
                dependencies: [.package(url: "\(clone.absoluteString)", from: "0.1.0")],
                targets: [.executableTarget(name: "app",
                                            dependencies: [.product(name: "LiveScan", package: "LiveScan")])]
            )
            """.write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try """
            import LiveScan

            // The README's delegate, as an app writes it: a stateless final class is Sendable as it stands.
            final class Printer: DataScannerDelegate {
                func dataScanner(_ scanner: DataScanner, didAdd items: [RecognizedItem], allItems: [RecognizedItem]) {
                    for case let .barcode(code) in items { print(code.symbology, code.payloadStringValue ?? "") }
                }
            }
            let scanner = DataScanner(recognizedDataTypes: [.barcode(), .text(textContentType: .URL)],
                                      recognizesMultipleItems: true)
            let printer = Printer()
            scanner.delegate = printer
            print(Symbology(name: "dataMatrix")!.rawValue, DataScanner.isSupported)
            // The README's scan, of the image given: a model not found is a ScanError it catches, not a crash.
            if CommandLine.arguments.count > 1 {
                do {
                    try scanner.startScanning(try ImageSource(path: CommandLine.arguments[1]))
                    for await items in scanner.recognizedItems { print(items.count, "items in view") }
                } catch {
                    print("cannot scan:", error)
                }
            }
            """.write(to: app.appendingPathComponent("Sources/app/main.swift"), atomically: true, encoding: .utf8)
        let build = try Shell.run("cd \"$0\" && swift build -q 2>&1 && ./.build/debug/app", arguments: [app.path])
        #expect(build.status == 0, "\(build.standardOutput)")
        #expect(build.standardOutput.hasSuffix("datamatrix true\n"), "\(build.standardOutput)")

        // Where an app's users put the library, no models: it says where it looked and how to get them.
        let image = folder.appendingPathComponent("qr.png").path
        try SceneRenderer(scene: SceneRenderer.still(symbology: .qr, payload: "https://example.com/app").scene)
            .writeImage(to: image)
        let empty = folder.appendingPathComponent("no-models").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let withoutModels = try Shell.run(
            "env -u LIVESCAN_MODELS XDG_DATA_HOME=\"$1\" XDG_DATA_DIRS=\"$1\" \"$0\" \"$2\"",
            arguments: [app.appendingPathComponent(".build/debug/app").path, empty, image])
        #expect(withoutModels.status == 0, "\(withoutModels.standardError)")
        let said = withoutModels.outputLines.last ?? ""
        #expect(said.hasPrefix("cannot scan: the text detector model ") && said.contains("LIVESCAN_MODELS"), "\(said)")
        // LIVESCAN_MODELS names the checkout's models/ (make setup's): the scan runs.
        let withModels = try Shell.run(
            "LIVESCAN_MODELS=\"$1\" XDG_DATA_HOME=\"$2\" XDG_DATA_DIRS=\"$2\" \"$0\" \"$3\"",
            arguments: [app.appendingPathComponent(".build/debug/app").path,
                        repository.appendingPathComponent("models").path, empty, image])
        #expect(withModels.status == 0, "\(withModels.standardError)")
        #expect(withModels.outputLines.contains("qr https://example.com/app"), "\(withModels.standardOutput)")
    }
}
