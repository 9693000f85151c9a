#!/usr/bin/env bash
# Runs the README's walkthrough (the block between the readme-walkthrough markers) as written,
# line by line, in a loopback-only network namespace with a home directory of its own, and
# checks what it printed: the newcomer's first commands must work on a fresh machine.
#
# After a line that starts something in the background (`… &`), it waits (at most 180 s: the
# first `swift run` may build) for the virtual device to listen and its root to be written, as a
# person waits for the "ready" line.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$root/README.md" "$work/walkthrough.sh" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
block = text.split("<!-- readme-walkthrough:begin -->", 1)[1].split("<!-- readme-walkthrough:end -->", 1)[0]
lines = block.strip().split("\n")
assert lines[0].startswith("```") and lines[-1] == "```", "the walkthrough is one fenced block"
out = ["set -euo pipefail", "cd \"$ROOT\""]
for line in lines[1:-1]:
    out.append("printf '\\n$ %s\\n' " + "'" + line.replace("'", "'\\''") + "'")
    out.append(line)
    if re.sub(r"\s+#.*$", "", line).rstrip().endswith("&"):
        out.append("wait_for_device")
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY

export ROOT="$root" HOME="$work/home"
mkdir -p "$HOME"
export PATH="$HOME/.local/bin:$PATH"
unset CAST_TRUST_ROOTS CAST_DEVICE CAST_DISCOVERY_INTERFACES CAST_INSECURE CAST_EMULATOR_STATE_DIR XDG_STATE_HOME XDG_CONFIG_HOME

status=0
timeout --signal=KILL 900 /usr/bin/unshare -n -- /bin/bash -c '
    ip link set lo up
    wait_for_device() {
        for _ in $(seq 1800); do
            if [ -f "$HOME/.local/state/cast-emulator/auth-chain/root.pem" ] \
                && (exec 3<>/dev/tcp/127.0.0.2/8009) 2>/dev/null; then
                return 0
            fi
            sleep 0.1
        done
        echo "the virtual device did not start" >&2
        return 1
    }
    # Whatever the walkthrough left running in the background ends with it.
    trap "jobs -p | xargs -r kill 2>/dev/null || true" EXIT
    . "$0"
' "$work/walkthrough.sh" >"$work/output" 2>&1 || status=$?
cat "$work/output"
[ "$status" = 0 ] || { echo "error: the README walkthrough failed (exit $status)" >&2; exit 1; }

expect() {
    grep -qE -- "$1" "$work/output" || { echo "error: the README walkthrough did not print /$1/" >&2; exit 1; }
}
expect 'auth: devices sign with the root in .*/\.local/state/cast-emulator/auth-chain/root\.pem'
expect '^Virtual Cast'
expect 'Playing A Movie on Virtual Cast'
expect 'PAUSED'
echo "==> the README walkthrough works as written"
