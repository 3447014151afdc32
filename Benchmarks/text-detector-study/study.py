"""Phase A: PP-OCR DB detection + (Tesseract | PP-OCR rec) on ICDAR 2015 dev half, scored as score_realdata.py."""
import json, os, re, subprocess, sys, tempfile, time
import cv2, numpy as np
sys.path.insert(0, os.environ.get("RAPIDOCR_WHEEL_DIR", "/tmp/td/whl"))
from rapidocr_onnxruntime.ch_ppocr_det.utils import DBPostProcess, DetPreProcess
from rapidocr_onnxruntime.ch_ppocr_rec.text_recognize import TextRecognizer
import onnxruntime as ort

ROOT = "/work/shared/realdata/icdar2015-incidental-text"
M = os.environ.get("RAPIDOCR_WHEEL_DIR", "/tmp/td/whl") + "/rapidocr_onnxruntime/models/"
THREADS = int(os.environ.get("ORT_THREADS", "1"))
WORD = re.compile(r"[A-Za-z0-9]+")


def words(s):
    return [w.lower() for w in WORD.findall(s)]


def session(path):
    so = ort.SessionOptions()
    so.intra_op_num_threads = THREADS
    so.inter_op_num_threads = 1
    return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])


det_sess = session(M + "ch_PP-OCRv4_det_infer.onnx")
post = DBPostProcess(thresh=0.3, box_thresh=0.5, max_candidates=1000, unclip_ratio=1.6, use_dilation=True,
                     score_mode="fast")
rec = TextRecognizer({"model_path": M + "ch_PP-OCRv4_rec_infer.onnx", "rec_batch_num": 6,
                      "rec_img_shape": [3, 48, 320], "intra_op_num_threads": THREADS, "inter_op_num_threads": 1,
                      "use_cuda": False, "use_dml": False})


def detect(img, side, limit_type):
    pre = DetPreProcess(side, limit_type, [0.5] * 3, [0.5] * 3)
    x = pre(img)
    t = time.perf_counter()
    pred = det_sess.run(None, {det_sess.get_inputs()[0].name: x})[0]
    t_net = time.perf_counter() - t
    boxes, scores = post(pred, img.shape[:2])
    return [order(b) for b in boxes], t_net, x.shape


def order(pts):
    pts = np.array(pts, dtype=np.float32)
    xs = pts[np.argsort(pts[:, 0])]
    l, r = xs[:2], xs[2:]
    tl, bl = l[np.argsort(l[:, 1])]
    tr, br = r[np.argsort(r[:, 1])]
    return np.array([tl, tr, br, bl], np.float32)


def crop(img, q):
    w = int(max(np.linalg.norm(q[0] - q[1]), np.linalg.norm(q[2] - q[3])))
    h = int(max(np.linalg.norm(q[0] - q[3]), np.linalg.norm(q[1] - q[2])))
    Mx = cv2.getPerspectiveTransform(q, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    d = cv2.warpPerspective(img, Mx, (w, h), borderMode=cv2.BORDER_REPLICATE, flags=cv2.INTER_CUBIC)
    if h >= 1.5 * w:
        d = np.rot90(d)
    return np.ascontiguousarray(d)


def tesseract_words(crops, height=None, border=8):
    """One tesseract process over a list of crop files, --psm 7, tsv: per crop, its words with their confidence.
    Crops are scaled to `height` when given and get a replicated `border` (Tesseract reads crops touching the
    edge badly)."""
    out = [[] for _ in crops]
    if not crops:
        return out
    with tempfile.TemporaryDirectory() as d:
        names = []
        for i, c in enumerate(crops):
            if height:
                s = height / c.shape[0]
                c = cv2.resize(c, (max(1, int(round(c.shape[1] * s))), height), interpolation=cv2.INTER_CUBIC)
            if border:
                c = cv2.copyMakeBorder(c, border, border, border, border, cv2.BORDER_REPLICATE)
            p = os.path.join(d, f"c{i:04d}.png")
            cv2.imwrite(p, c)
            names.append(p)
        lst = os.path.join(d, "list.txt")
        open(lst, "w").write("\n".join(names) + "\n")
        subprocess.run(["tesseract", lst, os.path.join(d, "out"), "--psm", "7", "-l", "eng", "tsv"],
                       capture_output=True, env={**os.environ, "OMP_THREAD_LIMIT": "1"})
        for row in open(os.path.join(d, "out.tsv")).read().splitlines()[1:]:
            f = row.split("\t")
            if len(f) >= 12 and f[0] == "5" and f[11].strip():
                out[int(f[1]) - 1].append((f[11], float(f[10])))
    return out


def tesseract_batch(crops, minconf=0, height=None):
    """Text per crop: its words (tesseract_words) with conf >= minconf."""
    return [" ".join(word for word, conf in found if conf >= minconf) for found in tesseract_words(crops, height)]


def score(entries, texts_per_image):
    rec_n = tot = good = ret = 0
    for ent, texts in zip(entries, texts_per_image):
        truth = [w for r in ent["regions"] if not r["dont_care"] for w in words(r["text"])]
        allw = {w for r in ent["regions"] for w in words(r["text"])}
        got = [w for t in texts for w in words(t)]
        found = set(got)
        tot += len(truth)
        rec_n += sum(1 for w in truth if w in found)
        long = [w for w in got if len(w) >= 3]
        good += sum(1 for w in long if w in allw)
        ret += len(long)
    return rec_n / tot, good / max(ret, 1), rec_n, tot, good, ret


def main():
    entries = json.load(open(os.path.join(ROOT, "labels.json")))
    configs = [(s, lt) for s in sys.argv[1].split(",") for lt in ["max"]] if len(sys.argv) > 1 else \
        [(736, "min"), (960, "max"), (1280, "max")]
    results = {}
    for side, lt in configs:
        per_rec, per_tess, per_tess48, per_recf = [], [], [], []
        times, nbox = [], 0
        t_rec = t_tess = 0
        for ent in entries:
            img = cv2.imread(os.path.join(ROOT, ent["file"]))
            quads, t_net, shp = detect(img, side, lt)
            times.append(t_net)
            nbox += len(quads)
            crops = [crop(img, q) for q in quads]
            t = time.perf_counter()
            rr, _ = rec(crops) if crops else ([], 0)
            t_rec += time.perf_counter() - t
            per_rec.append([txt for txt, sc in rr])
            per_recf.append([txt for txt, sc in rr if sc >= 0.5])
            t = time.perf_counter()
            per_tess.append(tesseract_batch(crops, minconf=0))
            t_tess += time.perf_counter() - t
            per_tess48.append(tesseract_batch(crops, minconf=0, height=48))
        key = f"{lt}{side} input {shp[3]}x{shp[2]}"
        results[key] = {
            "det_ms_median": round(1000 * float(np.median(times)), 1), "boxes": nbox,
            "pprec": score(entries, per_rec), "pprec_score0.5": score(entries, per_recf),
            "tesseract_psm7": score(entries, per_tess), "tesseract_psm7_h48": score(entries, per_tess48),
            "rec_s_total": round(t_rec, 1), "tess_s_total": round(t_tess, 1)}
        print(key, json.dumps(results[key]), flush=True)
        json.dump({"per_rec": per_rec, "per_tess": per_tess, "per_tess48": per_tess48},
                  open(os.path.join(os.environ.get("STUDY_OUT", "/tmp/td"), f"out_{lt}{side}.json"), "w"))


if __name__ == "__main__":
    main()
