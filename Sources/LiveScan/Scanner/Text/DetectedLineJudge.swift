import Foundation

/// How a detector box's readings become a line: which words are kept, and how sure the box must be.
extension DetectedLineReading {
    /// The reading as a line of text, its words under `minimumWordConfidence` left out; nil when the box's
    /// mean confidence is under `minimumConfidence` or nothing plausible is left. With the learned recogniser's
    /// reading, its words and Tesseract's vote instead (`agreedWords`; `holdsText`: the box is known to).
    func observation(minimumConfidence: Double, minimumWordConfidence: Double, holdsText: Bool = false)
        -> Observation?
    {
        let kept = learned.map { agreedWords(with: $0, holdsText: holdsText) }
            ?? words.filter { $0.confidence >= minimumWordConfidence }
        let transcript = Self.line(kept)
        let confidence = Self.meanConfidence(learned == nil ? words : kept)
        guard !kept.isEmpty, confidence >= minimumConfidence, TextPlausibility.isPlausibleLine(transcript) else {
            return nil
        }
        // The detector's box has a margin of about a third of its height above and below the ink (PaddleOCR's
        // unclip), so that the boxes of a page's lines overlap their neighbours' (and Tesseract's boxes, which take
        // in the neighbours' ascenders, overlap too): without a strip between its rows, a page of columns was read
        // across them (magazine page 8087_054 CER 0.75). The box reported is the detector's, narrowed across the
        // line to `detectedLineShare` of its height.
        return .text(transcript, confidence: confidence, bounds: region.narrowedAcross(to: Self.detectedLineShare))
    }

    /// The words the two readers of a box agree on, in line order. The learned recogniser reads more scene
    /// words right than Tesseract (106 of ICDAR 2015's 149 dev crops against 48), but it reads something into every
    /// box, railings and foliage too. The two readers' words are matched by where they lie along the line
    /// (`VotingGroup`): where both read a word, both saw text there; where they read the same letters, those are
    /// kept, with Tesseract's spacing when the learned recogniser ran words together (trained on Chinese too, it does
    /// at times: `NORTHINDIA`). Where they differ, the surer of the readings that are sure alone is kept
    /// (`learnedSureConfidence`, `tesseractSureConfidence`), and a word only one reader saw when that reader is sure
    /// of it alone. Only where the box is known to hold text (`holdsText`: a close crop's, a document's) is
    /// the surer reading kept however sure: both readers seeing different text is then no sign of a texture.
    ///
    /// Measured on ICDAR 2015's dev half with PP-OCRv4's recogniser, word recall / precision of the 48 photos,
    /// exact reads of the 149 crops: the surer reading however sure 0.563 / 0.631, 99; the surer of those sure alone
    /// 0.515 / 0.836, 88 (99 with a close crop's box taken as text).
    func agreedWords(with learned: LearnedReading, holdsText: Bool) -> [Word] {
        let groups = VotingGroup.groups(tesseract: words, learned: learned.words, along: region)
        return groups.flatMap { group -> [Word] in
            let learnedWords = group.learned.map { Word(text: $0.text, confidence: $0.confidence, bounds: $0.bounds) }
            if group.tesseract.isEmpty {
                return learnedWords.filter { $0.confidence >= Self.learnedSureConfidence }
            }
            if learnedWords.isEmpty {
                return group.tesseract.filter { $0.confidence >= Self.tesseractSureConfidence }
            }
            let tesseractSure = Self.meanConfidence(group.tesseract), learnedSure = Self.meanConfidence(learnedWords)
            let sameLetters = Self.comparable(group.tesseract.map(\.text).joined())
                == Self.comparable(learnedWords.map(\.text).joined())
            guard sameLetters else {
                let readings = holdsText ? [(tesseractSure, group.tesseract), (learnedSure, learnedWords)]
                    : [(tesseractSure, group.tesseract)].filter { $0.0 >= Self.tesseractSureConfidence }
                    + [(learnedSure, learnedWords)].filter { $0.0 >= Self.learnedSureConfidence }
                return readings.max { $0.0 < $1.0 }?.1 ?? []
            }
            // The same letters: the learned reading's words (fewer stray marks: `Soup` where Tesseract read
            // `Soup.`), unless Tesseract saw more words in them.
            let sure = max(tesseractSure, learnedSure)
            let chosen = group.tesseract.count > learnedWords.count ? group.tesseract : learnedWords
            return chosen.map { word in
                var surer = word
                surer.confidence = max(word.confidence, sure)
                return surer
            }
        }
    }

    /// How sure each reader must be, alone, for its words to be kept. Measured on ICDAR 2015's 48 dev photos
    /// (word recall / precision; the target is precision 0.80) with PP-OCRv6 small's recogniser, whose words are
    /// surer than PP-OCRv4's were (its bar was 0.93): learned 0.93 0.641 / 0.767, 0.95 0.628 / 0.789, 0.97
    /// 0.628 / 0.812, 0.98 0.610 / 0.822, 0.99 0.576 / 0.853; Tesseract (learned at 0.97) 0.85 0.632 / 0.814,
    /// 0.90 and 0.95 0.628 / 0.812, never alone 0.623 / 0.811. Most words counted as wrong at 0.97 are text the
    /// photos' labels leave out (`FOR THE BIGGEST` on a sign whose other words are labelled) or words run together
    /// (`GALAXYNote`).
    static let learnedSureConfidence = 0.97
    static let tesseractSureConfidence = 0.90

    /// A word as two readers' words are compared: lower case, letters and digits only.
    static func comparable(_ word: String) -> String {
        String(word.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    /// The share of a detected box's height its line's ink takes (measured on the magazine pages: 0.6 of the box
    /// keeps the line's capitals and stays clear of the next line).
    static let detectedLineShare = 0.6
}

/// How the readings of one frame are judged, with the recognizer's two confidence floors: the one place that says
/// what reads confidently and what makes a frame a document.
struct DetectedLineJudge {
    var minimumConfidence: Double
    var minimumWordConfidence: Double
    /// The frame's boxes are known to hold text: it is a close crop (`LearnedTextDetector.isCloseCrop`: a picture
    /// cut out around its text) or a document.
    var boxesHoldText = false

    /// Boxes that read confidently, at least, that make a frame a document.
    static let documentLineCount = 12

    /// The reading as a scene's line: nil when it does not read confidently.
    func sceneLine(_ reading: DetectedLineReading?) -> Observation? {
        reading?.observation(minimumConfidence: minimumConfidence, minimumWordConfidence: minimumWordConfidence,
                             holdsText: boxesHoldText)
    }

    /// Whether at least `documentLineCount` of the readings read confidently.
    func isDocument(_ readings: [DetectedLineReading?]) -> Bool {
        readings.count(where: { sceneLine($0) != nil }) >= Self.documentLineCount
    }

    /// The lines of one frame's readings by Tesseract alone, judged together. In a scene the detector also fires on
    /// textures, railings and foliage, which Tesseract "reads" with low confidence: a box must read confidently and
    /// its poor words are left out. In a document (`isDocument`: a page, a receipt) the detector's boxes are text,
    /// and a word read poorly is nearer the truth than none: every plausible reading is kept, all its words.
    ///
    /// Measured on the dev halves, words Tesseract read under 0.5: on the SROIE receipts 141 of 296 are words of
    /// the receipt, on ICDAR 2015's scene photos 13 of 121 are words of the photo. Each receipt reads 19 to 76
    /// boxes confidently, each scene photo 0 to 10 (all but one at most 6). Keeping every reading of a document
    /// took the receipts' CER from 0.242 to 0.117, and left the scene photos' word recall and precision as they
    /// were.
    func lines(of readings: [DetectedLineReading?]) -> [Observation] {
        guard isDocument(readings) else {
            return readings.compactMap(sceneLine)
        }
        return readings.compactMap { $0?.observation(minimumConfidence: 0, minimumWordConfidence: 0) }
    }
}

/// The words of a box's two readers that lie at the same place along its line: each word with every word of the
/// other reader it shares that place with, and theirs in turn.
struct VotingGroup {
    var tesseract: [DetectedLineReading.Word] = []
    var learned: [LearnedReading.Word] = []

    /// Two words lie at the same place when their spans along the line overlap by more than this share of the
    /// shorter: a word the learned recogniser ran together with the next lies over both of Tesseract's, and
    /// neighbours' boxes touching at a gap do not count.
    static let sharedShare = 0.5

    /// The groups of the words, in line order: along `line`'s top side, from its top-left corner.
    static func groups(tesseract: [DetectedLineReading.Word], learned: [LearnedReading.Word], along line: Bounds)
        -> [VotingGroup]
    {
        let (dx, dy) = (line.topRight.x - line.topLeft.x, line.topRight.y - line.topLeft.y)
        let length = max((dx * dx + dy * dy).squareRoot(), 1e-9)
        func span(_ bounds: Bounds) -> ClosedRange<Double> {
            let along = [bounds.topLeft, bounds.topRight, bounds.bottomRight, bounds.bottomLeft].map {
                (($0.x - line.topLeft.x) * dx + ($0.y - line.topLeft.y) * dy) / length
            }
            return along.min()!...along.max()!
        }
        func shared(_ a: ClosedRange<Double>, _ b: ClosedRange<Double>) -> Bool {
            let overlap = min(a.upperBound, b.upperBound) - max(a.lowerBound, b.lowerBound)
            return overlap > sharedShare * min(a.upperBound - a.lowerBound, b.upperBound - b.lowerBound)
        }
        let tesseractSpans = tesseract.map { span($0.bounds) }, learnedSpans = learned.map { span($0.bounds) }
        // Tesseract's words are 0..<tesseract.count, the learned ones follow; each group is one tree.
        var parent = Array(0..<(tesseract.count + learned.count))
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index { index = parent[index] }
            return index
        }
        for (index, tesseractSpan) in tesseractSpans.enumerated() {
            for (other, learnedSpan) in learnedSpans.enumerated() where shared(tesseractSpan, learnedSpan) {
                parent[root(tesseract.count + other)] = root(index)
            }
        }
        var groups: [Int: VotingGroup] = [:]
        var starts: [Int: Double] = [:]
        for (index, word) in tesseract.enumerated() {
            let group = root(index)
            groups[group, default: VotingGroup()].tesseract.append(word)
            starts[group] = min(starts[group] ?? .infinity, tesseractSpans[index].lowerBound)
        }
        for (index, word) in learned.enumerated() {
            let group = root(tesseract.count + index)
            groups[group, default: VotingGroup()].learned.append(word)
            starts[group] = min(starts[group] ?? .infinity, learnedSpans[index].lowerBound)
        }
        return groups.keys.sorted { starts[$0]! < starts[$1]! }.map { groups[$0]! }
    }
}
