import os
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ.get("STUDY_OUT", "/tmp/td")
exec(open(HERE + "/crops.py").read().split("t = time.perf_counter(); rr")[0])
import subprocess
def tessplain(ims, border):
    outs=[]
    with tempfile.TemporaryDirectory() as d:
        names=[]
        for i,c in enumerate(ims):
            if border: c = cv2.copyMakeBorder(c, border, border, border, border, cv2.BORDER_CONSTANT, value=(255,255,255)) if border>0 else c
            p=f"{d}/c{i:04d}.png"; cv2.imwrite(p,c); names.append(p)
        for p in names:
            r=subprocess.run(["tesseract",p,"-","--psm","7"],capture_output=True,env={**os.environ,"OMP_THREAD_LIMIT":"1"})
            outs.append(r.stdout.decode().strip())
    return outs
ci = lambda s: s.strip().lower()
for b in [0]:
    o=tessplain(imgs,b); print("border",b, sum(1 for x,g in zip(o,truth) if ci(x)==ci(g)), sum(1 for x,g in zip(o,truth) if norm(x)==norm(g)))
