#!/usr/bin/env bash
# Renders the castvideos screens the tmux tests saved (.build/artifacts/castvideos/*.ans, the
# terminal's text with its colours) into pictures: each capture becomes an HTML page
# (scripts/ansi-to-html.py) and headless Chromium takes its picture, inside a loopback-only
# network namespace. With --docs, the pictures and the text captures are copied to
# docs/castvideos/, which docs/castvideos.md shows.
#
#   scripts/render-captures.sh [--docs] [DIRECTORY]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
docs=0
if [ "${1:-}" = "--docs" ]; then docs=1; shift; fi
directory="${1:-$root/.build/artifacts/castvideos}"
command -v chromium >/dev/null || { echo "error: chromium is missing (apt-get install chromium)" >&2; exit 1; }
ls "$directory"/*.ans >/dev/null 2>&1 || {
    echo "error: no captures in $directory (run swift test --filter CastVideosScreensTests)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for capture in "$directory"/*.ans; do
    name="$(basename "$capture" .ans)"
    python3 "$root/scripts/ansi-to-html.py" "$capture" "castvideos: $name" >"$work/$name.html"
    # 120 columns of 9 px and 40 rows of 18 px, with the page's margin.
    timeout --signal=KILL 120 /usr/bin/unshare -n -- /bin/sh -c 'ip link set lo up && exec "$@"' sh \
        chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile" \
        --window-size=1100,740 --screenshot="$directory/$name.png" "file://$work/$name.html" >/dev/null 2>&1
    [ -s "$directory/$name.png" ] || { echo "error: no picture of $name" >&2; exit 1; }
    echo "$directory/$name.png"
done
if [ "$docs" = 1 ]; then
    mkdir -p "$root/docs/castvideos"
    cp "$directory"/*.png "$directory"/*.txt "$root/docs/castvideos/"
    echo "copied to docs/castvideos/"
fi
