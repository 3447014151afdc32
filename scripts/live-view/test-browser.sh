#!/usr/bin/env bash
# `livescan scan --serve` in a real browser: headless Chromium (Debian's chromium, installed by scripts/setup.sh when
# missing) opens the live view of a rendered video scanned at media speed (livescan-scenes' live-view preset: a URL
# code and a code holding markup), and browser_check.py checks, through the DevTools protocol, that the picture
# updates, the list shows both payloads, a click on the picture and one on the list choose the item (the page and
# the event log's `tap` line agree), and the markup is shown as text, never run. Then the scan must end whole: exit
# 0, the log's end line written.
#
#   scripts/live-view/test-browser.sh BIN_DIR [SCREENSHOT.png]     (make test-browser: .build/release)
#
# About 20 s; everything is made in a temporary folder, removed on every exit.
set -Eeuo pipefail

[[ $# -ge 1 && $# -le 2 ]] || { echo "Usage: $0 BIN_DIR [SCREENSHOT.png]" >&2; exit 2; }
fail() { echo "Error: $*" >&2; exit 1; }
trap 'echo "Error: line $LINENO: $BASH_COMMAND failed" >&2' ERR
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin_dir=$(cd "$1" 2>/dev/null && pwd) || fail "$1: no such folder"
screenshot=${2:-}
for tool in livescan livescan-scenes; do
    [[ -x "$bin_dir/$tool" ]] || fail "$bin_dir/$tool: not built (make build)"
done
command -v chromium >/dev/null || bash "$repo_root/scripts/setup.sh" chromium
command -v chromium >/dev/null || fail "chromium did not install"

work=$(mktemp -d "${TMPDIR:-/tmp}/livescan-browser.XXXXXX")
scan_pid=
cleanup() {
    local status=$?
    trap - EXIT INT TERM ERR
    [[ -n "$scan_pid" ]] && kill -KILL "$scan_pid" 2>/dev/null
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT INT TERM

"$bin_dir/livescan-scenes" video live-view "$work/view.mp4" --truth "$work/truth.json" >/dev/null 2>&1
# At media speed: 15 s, the time a viewer has. Port 0: any free port, read from what livescan prints.
"$bin_dir/livescan" scan "$work/view.mp4" --realtime --types qr --serve 0 --events "$work/view.jsonl" \
    >/dev/null 2>"$work/stderr" &
scan_pid=$!
url=
for _ in $(seq 100); do
    url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$work/stderr" || true)
    [[ -n "$url" ]] && break
    kill -0 "$scan_pid" 2>/dev/null || fail "livescan ended before serving: $(cat "$work/stderr")"
    sleep 0.1
done
[[ -n "$url" ]] || fail "livescan printed no address in 10 s"

# The scene's payloads, from its ground truth: the URL, and the markup (the one holding '<').
payload() { python3 -c "import json, sys; print(next(i['payload'] for i in json.load(open(sys.argv[1]))['items'] \
    if i['id'] == sys.argv[2]))" "$work/truth.json" "$1"; }
python3 "$repo_root/scripts/live-view/browser_check.py" --url "$url" --events "$work/view.jsonl" \
    --payload "$(payload qr-url)" --payload "$(payload qr-markup)" --markup "$(payload qr-markup)" \
    ${screenshot:+--screenshot "$screenshot"}

wait "$scan_pid" || fail "livescan scan ended with status $?"
scan_pid=
tail -n 1 "$work/view.jsonl" | grep -q '"event":"end","frame":449' || fail "the event log has no end line"
echo "test-browser: PASS"
