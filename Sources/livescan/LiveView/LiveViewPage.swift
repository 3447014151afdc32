/// The live view's one page, served at `/` from inside the binary: nothing is fetched from elsewhere. It shows the
/// latest picture (/frame.jpg) with every item's outline, short id and value drawn over it from /items (barcodes
/// green, text orange, the region of interest light blue, as `--annotate` draws them), the list of items beside it,
/// and the chosen item's value, content type and actions. A click on an outline or a row asks /tap; the choice is
/// shown when its `tap` line comes back in the event log (/events), so the page shows what the log records.
/// Every value from a scan is untrusted: it reaches the page as text (textContent), never as markup, and only an
/// http(s) URL becomes a link.
enum LiveViewPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>LiveScan</title>
<style>
  :root { color-scheme: dark; --barcode: #28d25a; --text: #ff9628; --region: #78c8ff; }
  body { margin: 0; font: 14px/1.4 system-ui, sans-serif; background: #111; color: #eee; display: flex;
         height: 100vh; }
  #view { flex: 3; display: flex; align-items: center; min-width: 0; padding: 8px; }
  #stage { position: relative; width: 100%; }
  /* The picture fills the view, letterboxed as the overlay's viewBox is (xMidYMid meet), so outlines fall on it. */
  #picture { display: block; width: 100%; height: auto; max-height: calc(100vh - 16px); object-fit: contain; }
  #overlay { position: absolute; inset: 0; width: 100%; height: 100%; }
  #overlay polygon { fill: transparent; stroke-width: 3; cursor: pointer; pointer-events: all; }
  #overlay .barcode { stroke: var(--barcode); }
  #overlay .text { stroke: var(--text); }
  #overlay .chosen { stroke-width: 6; fill: rgba(255, 255, 255, 0.15); }
  #overlay .region { stroke: var(--region); stroke-dasharray: 12 8; pointer-events: none; cursor: default; }
  #overlay text { font: bold 18px monospace; paint-order: stroke; stroke: #000; stroke-width: 4px; fill: #fff;
                  pointer-events: none; }
  aside { flex: 1; min-width: 260px; max-width: 420px; overflow: auto; border-left: 1px solid #333; padding: 8px; }
  h2 { font-size: 13px; text-transform: uppercase; color: #999; margin: 12px 0 4px; }
  #items { list-style: none; margin: 0; padding: 0; }
  #items li { padding: 4px 6px; border-left: 4px solid transparent; cursor: pointer; overflow-wrap: anywhere; }
  #items li.barcode { border-color: var(--barcode); }
  #items li.text { border-color: var(--text); }
  #items li.chosen { background: #2a2a2a; }
  .id { font-family: monospace; color: #aaa; margin-right: 6px; }
  #chosen pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #1c1c1c; padding: 6px; margin: 4px 0; }
  #status { color: #999; font-size: 12px; }
  button, a.action { background: #333; color: #eee; border: 1px solid #555; padding: 3px 8px; border-radius: 3px;
                     text-decoration: none; font: inherit; cursor: pointer; margin-right: 4px; }
</style>
</head>
<body>
<div id="view"><div id="stage"><img id="picture" alt="the latest picture"><svg id="overlay"></svg></div></div>
<aside>
  <div id="status">connecting</div>
  <h2>Items</h2>
  <ul id="items"></ul>
  <h2>Chosen</h2>
  <div id="chosen">Click an item on the picture or in the list.</div>
</aside>
<script>
"use strict";
const token = new URLSearchParams(location.search).get("token");
const withToken = (path) => token ? path + (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token)
                                  : path;
const svgNS = "http://www.w3.org/2000/svg";
const picture = document.getElementById("picture");
const overlay = document.getElementById("overlay");
const list = document.getElementById("items");
const chosenPanel = document.getElementById("chosen");
const statusLine = document.getElementById("status");
let items = [];
let chosen = null;        // the item of the last tap line in the log, as it was then
let ended = false;
let pictures = 0;

const shortId = (item) => item.id.slice(0, 8);
const valueOf = (item) => item.kind === "text" ? item.transcript : item.payload;
const kindOf = (item) => item.kind === "text" ? "text" : item.symbology;
const cut = (text, length) => text.length > length ? text.slice(0, length - 1) + "\u2026" : text;

function tap(item) {
  fetch(withToken("/tap?id=" + encodeURIComponent(item.id)));
}

function drawOverlay(doc) {
  overlay.setAttribute("viewBox", "0 0 " + doc.width + " " + doc.height);
  overlay.replaceChildren();
  if (doc.region_of_interest) {
    const [x, y, w, h] = doc.region_of_interest;
    const region = document.createElementNS(svgNS, "polygon");
    region.setAttribute("points", [[x, y], [x + w, y], [x + w, y + h], [x, y + h]].map((p) => p.join(",")).join(" "));
    region.setAttribute("class", "region");
    overlay.appendChild(region);
  }
  for (const item of doc.items) {
    const outline = document.createElementNS(svgNS, "polygon");
    outline.setAttribute("points", item.bounds.map((p) => p.join(",")).join(" "));
    outline.setAttribute("class", item.kind + (chosen && chosen.id === item.id ? " chosen" : ""));
    outline.dataset.id = item.id;
    outline.addEventListener("click", () => tap(item));
    overlay.appendChild(outline);
    const label = document.createElementNS(svgNS, "text");
    const top = item.bounds.reduce((a, b) => (b[1] < a[1] ? b : a));
    label.setAttribute("x", top[0]);
    label.setAttribute("y", Math.max(top[1] - 8, 18));
    label.textContent = shortId(item) + " " + cut(valueOf(item), 40);
    overlay.appendChild(label);
  }
}

function drawList() {
  list.replaceChildren(...items.map((item) => {
    const row = document.createElement("li");
    row.className = item.kind + (chosen && chosen.id === item.id ? " chosen" : "");
    row.dataset.id = item.id;
    const id = document.createElement("span");
    id.className = "id";
    id.textContent = shortId(item) + " " + kindOf(item);
    row.append(id, document.createTextNode(cut(valueOf(item), 200)));
    row.addEventListener("click", () => tap(item));
    return row;
  }));
}

function drawChosen() {
  if (!chosen) return;
  const value = valueOf(chosen);
  const heading = document.createElement("div");
  heading.textContent = shortId(chosen) + " " + kindOf(chosen)
    + (chosen.content ? " \u00b7 " + chosen.content.type : "") + (items.some((i) => i.id === chosen.id) ? "" : " (gone)");
  const text = document.createElement("pre");
  text.id = "chosen-value";
  text.textContent = value;
  const copy = document.createElement("button");
  copy.textContent = "Copy";
  copy.addEventListener("click", () => {
    if (navigator.clipboard) {
      navigator.clipboard.writeText(value);
    } else {
      getSelection().selectAllChildren(text);
    }
  });
  const actions = document.createElement("div");
  actions.append(copy);
  if (chosen.content && chosen.content.type === "url" && /^https?:\/\//i.test(value)) {
    const open = document.createElement("a");
    open.className = "action";
    open.href = value;
    open.target = "_blank";
    open.rel = "noopener noreferrer";
    open.textContent = "Open";
    actions.append(open);
  }
  chosenPanel.replaceChildren(heading, text, actions);
}

async function refresh() {
  if (ended) return;
  try {
    await new Promise((resolve, reject) => {
      picture.onload = resolve;
      picture.onerror = resolve;  // no picture yet: the items still show
      picture.src = withToken("/frame.jpg?n=" + pictures++);
    });
    const response = await fetch(withToken("/items"));
    if (response.ok) {
      const doc = await response.json();
      items = doc.items;
      drawOverlay(doc);
      drawList();
      statusLine.textContent = "frame " + doc.frame + " \u00b7 " + items.length + " in view";
    }
    setTimeout(refresh, 66);
  } catch (error) {
    statusLine.textContent = "the scan is not reachable";
    setTimeout(refresh, 1000);
  }
}

const log = new EventSource(withToken("/events"));
log.onmessage = (message) => {
  const line = JSON.parse(message.data);
  if (line.event === "tap") {
    chosen = line;
    drawChosen();
    drawList();
  } else if (line.event === "end") {
    ended = true;
    log.close();
    statusLine.textContent = "the scan ended (" + line.reason + ", " + line.frames_processed + " frames)";
  }
};
refresh();
</script>
</body>
</html>
"""#
}
