import os
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ.get("STUDY_OUT", "/tmp/td")
exec(open(HERE + "/sweep.py").read().split("# detection coverage")[0])
def hyb(pth, tth, agree=True, tess_only=None):
    out = []
    for c in cache:
        texts = []
        for (t, s), tw in zip(c["rec"], c["tess"]):
            tset = {w.lower() for x, cf in tw for w in words(x)}
            tconf = {w.lower(): cf for x, cf in tw for w in words(x)}
            keep = []
            for w in words(t):
                if s >= pth or (agree and w in tset):
                    keep.append(w)
            for x, cf in tw:
                for w in words(x):
                    if cf >= tth and w not in keep:
                        keep.append(w)
            texts.append(" ".join(keep))
        out.append(texts)
    return score(out)
for pth in [0.8, 0.85, 0.9, 0.95, 1.01]:
    for tth in [70, 80, 90, 101]:
        print(pth, tth, hyb(pth, tth), hyb(pth, tth, agree=False))
