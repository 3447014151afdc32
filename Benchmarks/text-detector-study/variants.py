import json, os, pickle, subprocess, sys, tempfile
import cv2, numpy as np
sys.path.insert(0, "/work/shared/tools")
import score_realdata as s
ROOT = "/work/shared/realdata/icdar2015-incidental-text"
entries = json.load(open(os.path.join(ROOT, "labels.json")))
cache = pickle.load(open(os.path.join(os.environ.get("STUDY_OUT", "/tmp/td"), "cache_min736_th0.pkl"), "rb"))
def crop(img, q):
    q = np.array(q, np.float32)
    w = int(max(np.linalg.norm(q[0] - q[1]), np.linalg.norm(q[2] - q[3])))
    h = int(max(np.linalg.norm(q[0] - q[3]), np.linalg.norm(q[1] - q[2])))
    M = cv2.getPerspectiveTransform(q, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    d = cv2.warpPerspective(img, M, (w, h), borderMode=cv2.BORDER_REPLICATE, flags=cv2.INTER_CUBIC)
    if h >= 1.5 * w: d = np.rot90(d)
    return np.ascontiguousarray(d)
def tess(crops, extra):
    out = [[] for _ in crops]
    with tempfile.TemporaryDirectory() as d:
        names = []
        for i, c in enumerate(crops):
            p = f"{d}/c{i:04d}.png"; cv2.imwrite(p, c); names.append(p)
        open(f"{d}/l.txt", "w").write("\n".join(names) + "\n")
        subprocess.run(["tesseract", f"{d}/l.txt", f"{d}/o", "--psm", "7", "-l", "eng"] + extra + ["tsv"], capture_output=True,
                       env={**os.environ, "OMP_THREAD_LIMIT": "1"})
        for row in open(f"{d}/o.tsv").read().splitlines()[1:]:
            f = row.split("\t")
            if len(f) >= 12 and f[0] == "5" and f[11].strip(): out[int(f[1]) - 1].append((f[11], float(f[10])))
    return out
def score(per):
    rn = tot = good = ret = 0
    for ent, texts in zip(entries, per):
        truth = [w for r in ent["regions"] if not r["dont_care"] for w in s.words(r["text"])]
        allw = {w for r in ent["regions"] for w in s.words(r["text"])}
        got = [w for t in texts for w in s.words(t)]
        tot += len(truth); rn += sum(1 for w in truth if w in set(got))
        long = [w for w in got if len(w) >= 3]; good += sum(1 for w in long if w in allw); ret += len(long)
    return round(rn / tot, 3), round(good / max(ret, 1), 3)
def filt(tw, l=55, w=50):
    res = []
    for x in tw:
        if not x: continue
        if sum(c for _, c in x) / len(x) >= l: res.append(" ".join(a for a, c in x if c >= w))
    return res
variant = sys.argv[1]
per = []
for ent, c in zip(entries, cache):
    img = cv2.imread(os.path.join(ROOT, ent["file"]))
    if "gray" in variant: img = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    crops = [crop(img, q) for q in c["quads"]]
    if variant.startswith("min"):
        m = int(variant[3:])
        crops = [cv2.resize(x, (max(1, round(x.shape[1] * m / x.shape[0])), m), interpolation=cv2.INTER_CUBIC) if x.shape[0] < m else x for x in crops]
    extra = ["-c", "user_defined_dpi=300"] if "dpi" in variant else []
    per.append(tess(crops, extra))
print(variant, "none", score([[" ".join(a for a, _ in x) for x in tw] for tw in per]), "l55w50", score([filt(tw) for tw in per]), "l65w50", score([filt(tw, 65) for tw in per]))
