import os, sys
box, unclip = float(sys.argv[1]), float(sys.argv[2])
src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "study.py")).read().split('if __name__ == "__main__":')[0]
src = src.replace("box_thresh=0.5", f"box_thresh={box}").replace("unclip_ratio=1.6", f"unclip_ratio={unclip}")
sys.argv = ["x"]
exec(src)
v = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "variants.py")).read()
v = v.split("variant = sys.argv[1]")[0]
exec(v.replace(v[v.index('cache = pickle.load'):v.index('def crop')], ''))
per = []
for ent in entries:
    img = cv2.imread(os.path.join(ROOT, ent["file"]))
    quads, _, _ = detect(img, 736, "min")
    per.append(tess([crop(img, q) for q in quads], []))
print("box", box, "unclip", unclip, "l55w50", score([filt(tw) for tw in per]), "none", score([[" ".join(a for a, _ in x) for x in tw] for tw in per]))
