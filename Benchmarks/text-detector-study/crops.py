import os
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ.get("STUDY_OUT", "/tmp/td")
exec(open(HERE + "/study.py").read().split('if __name__ == "__main__":')[0])
ents = json.load(open(os.path.join(ROOT, "word_crops_labels.json")))
imgs = [cv2.imread(os.path.join(ROOT, e["file"])) for e in ents]
truth = [e["lines"][0] for e in ents]
norm = lambda s: "".join(words(s))
t = time.perf_counter(); rr, _ = rec(imgs); trec = time.perf_counter() - t
t = time.perf_counter(); tt = tesseract_batch(imgs); ttess = time.perf_counter() - t
tt48 = tesseract_batch(imgs, height=48)
def acc(outs, f): return sum(1 for o, g in zip(outs, truth) if f(o) == f(g))
ci = lambda s: s.strip().lower()
print("crops", len(truth))
for name, outs in [("pprec", [r[0] for r in rr]), ("tess", tt), ("tess_h48", tt48)]:
    print(name, "exact-ci", acc(outs, ci), "punct-stripped-ci", acc(outs, norm))
print("rec s", round(trec, 2), "tess s (incl. process start, png write)", round(ttess, 2))
