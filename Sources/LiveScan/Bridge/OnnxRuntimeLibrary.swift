import Foundation

/// ONNX Runtime's C library, which runs the learned text networks (CBridge/OnnxRuntime.hpp): `scripts/fetch-models.sh`
/// takes it from its pinned PyPI wheel into `models/`, beside the networks, and it is found as they are.
public enum OnnxRuntimeLibrary {
    public static let fileName = "libonnxruntime.so.1.32.0"

    /// Its path: beside the network at `networkPath` when it is there (models copied together), else where
    /// `ModelFiles.locate` finds it. Throws `ScanError.modelMissing`, naming `make setup`, when it is not installed.
    public static func locate(besideNetwork networkPath: String? = nil) throws -> String {
        if let networkPath {
            let beside = URL(fileURLWithPath: networkPath).deletingLastPathComponent().appendingPathComponent(fileName)
                .path
            if FileManager.default.fileExists(atPath: beside) {
                return beside
            }
        }
        return try ModelFiles.locate(fileName, describedAs: "the ONNX Runtime library")
    }
}
