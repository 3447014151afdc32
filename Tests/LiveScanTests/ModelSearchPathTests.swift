import Foundation
import Testing
@testable import LiveScan

/// Where the learned models are looked for: the one list `ModelFiles.searchedFolders` keeps, which the README, the
/// missing-model error and `make install` follow.
@Suite struct ModelSearchPathTests {
    @Test func theFoldersAreSearchedInTheDocumentedOrder() {
        let installed = URL(fileURLWithPath: "/opt/tools/bin/livescan")
        let environment = ["LIVESCAN_MODELS": "/data/models/", "XDG_DATA_HOME": "/home/u/.data",
                           "XDG_DATA_DIRS": "/opt/share:relative/ignored:/usr/share"]
        #expect(ModelFiles.searchedFolders(environment: environment, executable: installed) == [
            "/data/models", "/opt/tools/bin/models", "/opt/tools/share/livescan/models",
            "/home/u/.data/livescan/models", "/opt/share/livescan/models", "/usr/share/livescan/models",
        ])
        // Built in a checkout: its models/ (where `make setup` puts them) comes after those beside the binary.
        let built = URL(fileURLWithPath: "/src/LiveScan/.build/x86_64-unknown-linux-gnu/release/livescan")
        let defaults = ModelFiles.searchedFolders(environment: [:], executable: built)
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        #expect(defaults == [
            "/src/LiveScan/.build/x86_64-unknown-linux-gnu/release/models",
            "/src/LiveScan/.build/x86_64-unknown-linux-gnu/share/livescan/models",
            "/src/LiveScan/models",
            URL(fileURLWithPath: home).appendingPathComponent(".local/share/livescan/models").path,
            "/usr/local/share/livescan/models", "/usr/share/livescan/models",
        ])
    }

    @Test func aMissingModelSaysWhereItLookedAndNamesLivescanModels() {
        #expect {
            _ = try ModelFiles.locate("no-such-model.onnx", describedAs: "the test model")
        } throws: { error in
            guard case let ScanError.modelMissing(message) = error else { return false }
            return message.hasPrefix("the test model no-such-model.onnx is not installed: ")
                && message.contains("LIVESCAN_MODELS") && message.contains("/usr/share/livescan/models")
                && message.contains("make install") && !message.contains("\n")
        }
    }
}
