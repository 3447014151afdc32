import LiveScan

/// `s` in the listing: the current frame as a PNG. Highlights are drawn once the annotator lands.
enum Snapshot {
    static func write(frame: Frame, items: [RecognizedItem], to path: String) throws {
        try frame.image.write(to: path)
    }
}
