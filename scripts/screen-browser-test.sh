#!/usr/bin/env bash
# Opens a virtual device's TV screen in headless Chromium and checks it while the device plays
# a real clip: the title appears, the progress advances, pause freezes it, the <video>
# element follows the device within a second, LOAD_FAILED shows the error, STOP brings the
# idle screen back; a page of another origin and a name rebound to the device (DNS
# rebinding) can neither drive the control endpoint nor read the screen; then castvideos'
# built-in device playing a built-in video, which must move in the page's <video>. Everything
# runs in a fresh network namespace with only loopback (unshare -n). Screenshots of each state
# go to .build/artifacts/screen/ (or $1).
# Needs chromium, ffmpeg and tmux (scripts/test.sh installs them) and built cast-emulator and
# castvideos.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
artifacts="${1:-$root/.build/artifacts/screen}"
emulator="$(swift build --package-path "$root" --show-bin-path)/cast-emulator"
[ -x "$emulator" ] || { echo "error: $emulator is missing (swift build first)" >&2; exit 1; }
castvideos="$(dirname "$emulator")/castvideos"
[ -x "$castvideos" ] || { echo "error: $castvideos is missing (swift build first)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "error: tmux is missing (apt-get install tmux)" >&2; exit 1; }
command -v chromium >/dev/null || { echo "error: chromium is missing (apt-get install chromium)" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "error: ffmpeg is missing (apt-get install ffmpeg)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rm -f "$artifacts"/*.png
mkdir -p "$artifacts"
# The whole run is bounded: a hang fails it.
# The built-in media is made into the cache the castvideos tests share, once.
timeout --signal=KILL 900 /usr/bin/unshare -n -- /bin/sh -c \
    'ip link set lo up && exec python3 "$@"' sh \
    "$root/scripts/screen-browser-test.py" --emulator "$emulator" --artifacts "$artifacts" --work "$work" \
    --castvideos "$castvideos" --cache "$root/.build/castvideos-test-cache" \
    || { echo "error: the screen browser test failed (log: chromium.log in a kept copy below)" >&2
         cp "$work"/*.log "$work"/*.err "$artifacts"/ 2>/dev/null || true; exit 1; }
echo "screenshots: $artifacts"
