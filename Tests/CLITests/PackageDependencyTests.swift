import Foundation
import Testing

/// LiveScan as an app adds it: by URL and version. SwiftPM refuses such a dependency if any of its targets uses
/// unsafe flags (it did: `-I/usr/include/opencv4`); this builds a package that depends on the repository's
/// committed HEAD, tagged, and runs it.
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
            """.write(to: app.appendingPathComponent("Sources/app/main.swift"), atomically: true, encoding: .utf8)
        let build = try Shell.run("cd \"$0\" && swift build -q 2>&1 && ./.build/debug/app", arguments: [app.path])
        #expect(build.status == 0, "\(build.standardOutput)")
        #expect(build.standardOutput.hasSuffix("datamatrix true\n"), "\(build.standardOutput)")
    }
}
