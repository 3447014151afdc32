import json, os, pickle, re, sys
import numpy as np
from shapely.geometry import Polygon
ROOT = "/work/shared/realdata/icdar2015-incidental-text"
WORD = re.compile(r"[A-Za-z0-9]+")
def words(s): return [w.lower() for w in WORD.findall(s)]
entries = json.load(open(os.path.join(ROOT, "labels.json")))
cache = pickle.load(open(sys.argv[1], "rb"))
def score(texts_per_image):
    rn = tot = good = ret = 0
    for ent, texts in zip(entries, texts_per_image):
        truth = [w for r in ent["regions"] if not r["dont_care"] for w in words(r["text"])]
        allw = {w for r in ent["regions"] for w in words(r["text"])}
        got = [w for t in texts for w in words(t)]
        tot += len(truth); rn += sum(1 for w in truth if w in set(got))
        long = [w for w in got if len(w) >= 3]
        good += sum(1 for w in long if w in allw); ret += len(long)
    return round(rn / tot, 3), round(good / max(ret, 1), 3), ret
# detection coverage: GT (non dont care) whose centre lies in some det quad
cov = totg = 0
kinds = {"dontcare": 0, "misread": 0, "nothing": 0}
for ent, c in zip(entries, cache):
    polys = [Polygon(q).buffer(0) for q in c["quads"]]
    for r in ent["regions"]:
        g = Polygon(r["quad"]).buffer(0)
        if r["dont_care"]: continue
        totg += 1
        if any(p.intersection(g).area > 0.5 * g.area for p in polys): cov += 1
    allw = {w for r in ent["regions"] for w in words(r["text"])}
    for p, (t, s) in zip(polys, c["rec"]):
        for w in words(t):
            if len(w) < 3 or w in allw: continue
            best = max(ent["regions"], key=lambda r: p.intersection(Polygon(r["quad"]).buffer(0)).area)
            a = p.intersection(Polygon(best["quad"]).buffer(0)).area
            kinds["nothing" if a == 0 else ("dontcare" if best["dont_care"] else "misread")] += 1
print("GT words covered >50% by a det quad:", cov, "/", totg, " wrong rec words by kind:", kinds)
for th in [0, 0.5, 0.7, 0.8, 0.85, 0.9, 0.95]:
    for hmin in [0, 12, 16, 20]:
        pr = [[t for (t, s), h in zip(c["rec"], c["heights"]) if s >= th and h >= hmin] for c in cache]
        print("pprec score>=", th, "h>=", hmin, score(pr))
for th in [0, 50, 70, 80, 90]:
    pt = [[" ".join(w for w, cf in ws if cf >= th) for ws in c["tess"]] for c in cache]
    print("tess conf>=", th, score(pt))
# hybrid: per crop the PP word if score high; per word check
