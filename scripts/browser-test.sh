#!/usr/bin/env bash
# Load a `ktour animate` or `ktour report` page in headless Chromium, offline, and fail on a JavaScript
# error or a blank page.
#
#   scripts/browser-test.sh RUN.html [SCREENSHOT.png]
#
# - Installs Debian's `chromium` with apt-get when no chromium is on PATH (as root, or with sudo). When
#   it cannot be installed the test is SKIPPED with a loud message and exit 0.
# - Pass 1 (--dump-dom): the page checks itself when it loads and then sets data-status="ok" on <html>
#   (an animation replays every event forward and back; a report finds a drawn SVG in each of its
#   data-figures figures); a window.onerror handler sets data-status="error: ..." instead. Anything
#   but "ok" fails.
# - Pass 2 (--screenshot, page opened at #step=25, which a report ignores): the PNG must exist and hold
#   more than a handful of colours (decoded with python3's standard library only).
# Exit: 0 pass (or skip), 1 fail, 2 usage.
set -euo pipefail

html=${1:?usage: scripts/browser-test.sh RUN.html [SCREENSHOT.png]}
shot=${2:-}
[ -f "$html" ] || { echo "browser-test: no such file: $html" >&2; exit 2; }
html=$(cd "$(dirname "$html")" && pwd)/$(basename "$html")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "$shot" ] || shot=$work/screenshot.png

skip() {
  echo "############################################################" >&2
  echo "## SKIP browser test: $*" >&2
  echo "## The page was NOT checked in a browser." >&2
  echo "############################################################" >&2
  exit 0
}

find_chromium() {
  for c in chromium chromium-browser google-chrome-stable google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then command -v "$c"; return 0; fi
  done
  return 1
}

if ! browser=$(find_chromium); then
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && sudo="sudo -n" \
      || skip "chromium is missing and this user cannot install packages"
  fi
  command -v apt-get >/dev/null 2>&1 || skip "chromium is missing and there is no apt-get"
  echo "browser-test: installing chromium with apt-get..." >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! timeout 120 $sudo apt-get install -y --no-install-recommends chromium >"$work/apt.log" 2>&1; then
    timeout 60 $sudo apt-get update >>"$work/apt.log" 2>&1 || true
    timeout 120 $sudo apt-get install -y --no-install-recommends chromium >>"$work/apt.log" 2>&1 \
      || { tail -n 5 "$work/apt.log" >&2; skip "apt-get could not install chromium"; }
  fi
  browser=$(find_chromium) || skip "chromium installed but not found on PATH"
fi
echo "browser-test: using $browser ($("$browser" --version 2>/dev/null || echo unknown version))" >&2

# Offline: no proxy, no background fetches; --proxy-server to a dead port makes any request fail.
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
  --disable-background-networking --disable-component-update --disable-sync
  --disable-extensions --disable-default-apps --mute-audio --hide-scrollbars
  --proxy-server=127.0.0.1:9 --proxy-bypass-list='<-loopback>'
  --virtual-time-budget=3000 --window-size=1280,900)

# Pass 1: the page's own check.
timeout 60 "$browser" "${flags[@]}" --user-data-dir="$work/p1" --enable-logging=stderr --v=0 \
  --dump-dom "file://$html" >"$work/dom.html" 2>"$work/console.log" || {
  echo "browser-test: FAIL: chromium exited with an error (dump-dom)" >&2
  tail -n 20 "$work/console.log" >&2
  exit 1
}
status=$(grep -o 'data-status="[^"]*"' "$work/dom.html" | head -n 1 || true)
if grep -q "Uncaught" "$work/console.log"; then
  echo "browser-test: FAIL: JavaScript error in the console:" >&2
  grep "Uncaught" "$work/console.log" >&2
  exit 1
fi
if [ "$status" != 'data-status="ok"' ]; then
  echo "browser-test: FAIL: the page's self-test says ${status:-nothing (the script did not run)}" >&2
  grep -i "console\|error" "$work/console.log" | tail -n 10 >&2 || true
  exit 1
fi
figures=$(grep -o '<html[^>]*data-figures="[0-9]*"' "$work/dom.html" | grep -o '[0-9]*"$' | tr -d '"' || true)
echo "browser-test: self-test ok${figures:+ ($figures figures drawn)}" >&2

# Pass 2: a screenshot of a position partway through, which must not be blank.
rm -f "$shot"
timeout 60 "$browser" "${flags[@]}" --user-data-dir="$work/p2" \
  --screenshot="$shot" "file://$html#step=25" >"$work/shot.log" 2>&1 || {
  echo "browser-test: FAIL: chromium exited with an error (screenshot)" >&2
  tail -n 20 "$work/shot.log" >&2
  exit 1
}
[ -s "$shot" ] || { echo "browser-test: FAIL: no screenshot written" >&2; exit 1; }
python3 - "$shot" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, ihdr = 8, b"", None
while pos < len(data):
    (n,) = struct.unpack(">I", data[pos:pos + 4]); kind = data[pos + 4:pos + 8]
    body = data[pos + 8:pos + 8 + n]; pos += 12 + n
    if kind == b"IHDR": ihdr = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT": idat += body
w, h, depth, ctype, _, _, interlace = ihdr
if depth != 8 or interlace or ctype not in (0, 2, 4, 6):
    print("browser-test: screenshot format not checked (%r); size %d bytes" % (ihdr, len(data))); sys.exit(0)
bpp = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
for y in range(h):
    f = raw[y * (stride + 1)]; line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0; b = prev[i]; c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line)); prev = line
counts = {}
for line in rows[::2]:
    for i in range(0, stride, bpp * 2):
        px = line[i:i + bpp]; counts[px] = counts.get(px, 0) + 1
total = sum(counts.values()); top = max(counts.values())
print("browser-test: screenshot %dx%d, %d colours, commonest %.1f%%" % (w, h, len(counts), 100.0 * top / total))
if len(counts) < 8 or top > 0.985 * total:
    print("browser-test: FAIL: the screenshot is blank"); sys.exit(1)
PY
echo "browser-test: PASS ($shot)" >&2
