#!/usr/bin/env python3
"""Drives headless Chromium against `livescan scan --serve` and checks the page as a viewer sees it.

Chromium is driven over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages ended by NUL on
its file descriptors 3 and 4), so nothing beyond Python's standard library and Debian's chromium is needed.

Checks, each a line on stdout, and exit 1 at the first that fails:
  - the picture loads and updates (the frame number the page shows goes up);
  - the list shows every payload given with --payload;
  - a click on an item's outline on the picture, and one on a row of the list, choose it: the page shows its value
    and the event log (--events) gets a `tap` line with its id;
  - a payload holding markup is shown as text: no element it describes exists and the page's title is unchanged.
With --screenshot PATH the page is saved as PNG at the end.
"""
import argparse
import base64
import json
import os
import subprocess
import sys
import tempfile
import time


class Browser:
    """Headless Chromium with one page, spoken to over the DevTools pipe."""

    def __init__(self, chromium, width, height):
        commands_read, self._commands = os.pipe()
        self._replies, replies_write = os.pipe()
        self._profile = tempfile.TemporaryDirectory(prefix="livescan-chromium-")

        def give_pipes():  # in the child: Chromium reads fd 3 and writes fd 4
            # Through copies: a pipe may already be fd 3 or 4, and dup2 onto itself would keep it close-on-exec.
            commands, replies = os.dup(commands_read), os.dup(replies_write)
            os.dup2(commands, 3)
            os.dup2(replies, 4)

        self._process = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--remote-debugging-pipe", f"--user-data-dir={self._profile.name}",
             f"--window-size={width},{height}", "about:blank"],
            preexec_fn=give_pipes, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(replies_write)
        self._next_id = 0
        self._buffer = b""
        self._session = None

    def call(self, method, params=None, timeout=20, session=True):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session and self._session:
            message["sessionId"] = self._session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while time.time() < deadline:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
        raise TimeoutError(f"{method}: no answer in {timeout} s")

    def _read_message(self, deadline):
        while b"\0" not in self._buffer:
            if time.time() > deadline:
                raise TimeoutError("Chromium said nothing")
            chunk = os.read(self._replies, 65536)
            if not chunk:
                raise RuntimeError("Chromium closed its pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def open(self, url):
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self._session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                                  session=False)["sessionId"]
        self.call("Page.enable")
        self.call("Page.navigate", {"url": url})

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def click(self, x, y):
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent",
                      {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def screenshot(self, path):
        with open(path, "wb") as file:
            file.write(base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"})["data"]))

    def close(self):
        try:
            self.call("Browser.close", session=False, timeout=5)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
        self._profile.cleanup()


def wait_for(what, probe, seconds=20):
    deadline = time.time() + seconds
    value = None
    while time.time() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"{what}: not seen in {seconds} s (last: {value!r})")


def passed(line):
    print(f"ok: {line}", flush=True)


def tap_lines(events):
    with open(events, encoding="utf-8") as file:
        return [json.loads(line) for line in file if '"event":"tap"' in line]


ITEMS = "[...document.querySelectorAll('#items li')].map(li => ({id: li.dataset.id, text: li.textContent}))"
CHOSEN = "(document.getElementById('chosen-value') || {}).textContent"


def choose(browser, events, item_id, payload, on_picture):
    """Clicks the item's outline on the picture, or its row; waits for the page and the log to say it is chosen."""
    selector = f"#overlay polygon[data-id='{item_id}']" if on_picture else f"#items li[data-id='{item_id}']"
    rect = wait_for(f"the item {item_id[:8]} on the page", lambda: browser.evaluate(
        f"(() => {{ const e = document.querySelector(\"{selector}\"); if (!e) return null;"
        " const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"))
    taps_before = len(tap_lines(events))
    browser.click(rect[0], rect[1])
    wait_for("the chosen value on the page", lambda: browser.evaluate(CHOSEN) == payload)
    tap = wait_for("a tap line in the event log", lambda: tap_lines(events)[taps_before:])[-1]
    if tap["id"] != item_id:
        raise AssertionError(f"the log's tap names {tap['id']}, the click was on {item_id}")
    passed(f"a click on the {'picture' if on_picture else 'list'} chose {item_id[:8]} (page and log agree)")


def check(browser, arguments):
    browser.open(arguments.url)
    wait_for("the page", lambda: browser.evaluate("document.title") == "LiveScan")
    wait_for("a picture", lambda: browser.evaluate("document.getElementById('picture').naturalWidth") > 0)
    def frame():  # the status line reads "frame N · M in view"
        words = (browser.evaluate("document.getElementById('status').textContent") or "").split()
        return int(words[1]) if len(words) > 1 and words[0] == "frame" else None

    first = wait_for("a frame number", lambda: [frame()] if frame() is not None else None)[0]
    later = wait_for("the picture updating", lambda: (lambda now: now if now is not None and now > first + 5 else None)(
        frame()))
    src = browser.evaluate("document.getElementById('picture').src")
    passed(f"the picture loads and updates (frame {first} -> {later}, {src.rsplit('=', 1)[-1]} pictures asked for)")

    items = wait_for("every payload in the list", lambda: (lambda rows: rows if all(
        any(payload in row["text"] for row in rows) for payload in arguments.payload) else None)(
        browser.evaluate(ITEMS)))
    passed(f"the list shows {len(arguments.payload)} payloads among {len(items)} rows")

    ids = {payload: next(row["id"] for row in items if payload in row["text"]) for payload in arguments.payload}
    for index, payload in enumerate(arguments.payload):
        choose(browser, arguments.events, ids[payload], payload, on_picture=index % 2 == 0)

    if arguments.markup:
        choose(browser, arguments.events, ids[arguments.markup], arguments.markup, on_picture=True)
        title = browser.evaluate("document.title")
        injected = browser.evaluate("document.querySelectorAll('img[src=\"x\"], #items script, #chosen script').length")
        shown = browser.evaluate(CHOSEN)
        if title != "LiveScan" or injected != 0 or shown != arguments.markup:
            raise AssertionError(f"markup ran or vanished: title {title!r}, injected {injected}, shown {shown!r}")
        passed("a payload holding markup is shown as text")
    if arguments.screenshot:
        browser.screenshot(arguments.screenshot)
        passed(f"screenshot {arguments.screenshot}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the page's address, as livescan printed it")
    parser.add_argument("--events", required=True, help="the scan's --events file")
    parser.add_argument("--payload", action="append", default=[], help="a payload the list must show (repeat)")
    parser.add_argument("--markup", help="a payload holding markup, which must show as text")
    parser.add_argument("--screenshot", help="save the page as PNG here at the end")
    parser.add_argument("--chromium", default="chromium")
    parser.add_argument("--size", default="1280x720", help="the window, WIDTHxHEIGHT")
    arguments = parser.parse_args()
    width, height = (int(side) for side in arguments.size.split("x"))
    browser = Browser(arguments.chromium, width, height)
    try:
        check(browser, arguments)
    except (AssertionError, RuntimeError, TimeoutError) as failure:
        print(f"FAIL: {failure}", file=sys.stderr, flush=True)
        return 1
    finally:
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
