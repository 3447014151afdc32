import os
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ.get("STUDY_OUT", "/tmp/td")
exec(open(HERE + "/sweep.py").read().split("# detection coverage")[0])
for lth in [0, 55, 65, 70, 75]:
    for wth in [0, 50, 60, 70]:
        out = []
        for c in cache:
            texts = []
            for tw in c["tess"]:
                if not tw: continue
                m = sum(cf for _, cf in tw) / len(tw)
                if m < lth: continue
                texts.append(" ".join(w for w, cf in tw if cf >= wth))
            out.append(texts)
        print("line mean>=", lth, "word>=", wth, score(out))
