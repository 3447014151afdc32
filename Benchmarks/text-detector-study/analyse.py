import os
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ.get("STUDY_OUT", "/tmp/td")
"""Cache detections + readings (with scores) at one det size, then sweep filters offline."""
import json, os, pickle, sys
sys.argv = ["x"]
exec(open(HERE + "/study.py").read().split('if __name__ == "__main__":')[0])
from shapely.geometry import Polygon


def tess_conf(crops, height=None):
    """Per crop: list of (word, conf)."""
    out = [[] for _ in crops]
    if not crops:
        return out
    with tempfile.TemporaryDirectory() as d:
        names = []
        for i, c in enumerate(crops):
            if height:
                s = height / c.shape[0]
                c = cv2.resize(c, (max(1, int(round(c.shape[1] * s))), height), interpolation=cv2.INTER_CUBIC)
            if os.environ.get("BORDER"): c = cv2.copyMakeBorder(c, 8, 8, 8, 8, cv2.BORDER_REPLICATE)
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


side, lt = int(os.environ.get("SIDE", "736")), os.environ.get("LT", "min")
entries = json.load(open(os.path.join(ROOT, "labels.json")))
cache = []
for ent in entries:
    img = cv2.imread(os.path.join(ROOT, ent["file"]))
    quads, t_net, shp = detect(img, side, lt)
    crops = [crop(img, q) for q in quads]
    rr, _ = rec(crops) if crops else ([], 0)
    tt = tess_conf(crops, height=int(os.environ.get("TH","0")) or None)
    cache.append({"quads": [q.tolist() for q in quads], "rec": rr, "tess": tt,
                  "heights": [c.shape[0] for c in crops]})
pickle.dump(cache, open(f"{OUT}/cache_{lt}{side}_th{os.environ.get('TH','0')}.pkl", "wb"))
print("done", lt, side)
