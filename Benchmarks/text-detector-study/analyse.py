import os
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ.get("STUDY_OUT", "/tmp/td")
"""Cache detections + readings (with scores) at one det size, then sweep filters offline."""
import json, os, pickle, sys
sys.argv = ["x"]
exec(open(HERE + "/study.py").read().split('if __name__ == "__main__":')[0])
from shapely.geometry import Polygon


def tess_conf(crops, height=None):
    """Per crop: list of (word, conf); a border only with BORDER set."""
    return tesseract_words(crops, height, border=8 if os.environ.get("BORDER") else 0)


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
