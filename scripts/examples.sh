#!/usr/bin/env bash
# Builds every package under Examples/ (each depends on swift-cast by path, as an app of its
# own would) and runs those that cast against cast-emulator, discovered over mDNS inside a
# loopback-only network namespace (no packet leaves the machine).
#
#   scripts/examples.sh             build all, run cast-a-video and queue-and-channel
#   scripts/examples.sh --build     build only
#
# Needs the root package built first (swift build): the emulator is its debug cast-emulator.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
say() { printf '==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

run=1
case "${1:-}" in
    --build) run=0 ;;
    "") ;;
    *) die "usage: scripts/examples.sh [--build]" ;;
esac

examples=(CastAVideo QueueAndChannel WidgetsInText)
for example in "${examples[@]}"; do
    say "building Examples/$example"
    swift build --package-path "Examples/$example" -Xswiftc -warnings-as-errors 2>&1 | tail -n 3 \
        || die "Examples/$example does not build"
done
[ "$run" = 1 ] || exit 0

emulator="$(swift build --show-bin-path)/cast-emulator"
[ -x "$emulator" ] || die "$emulator missing: run swift build first"
bin() { echo "$(swift build --package-path "Examples/$1" --show-bin-path)/$2"; }
export CAST_A_VIDEO="$(bin CastAVideo cast-a-video)"
export QUEUE_AND_CHANNEL="$(bin QueueAndChannel queue-and-channel)"
export WIDGETS_IN_TEXT="$(bin WidgetsInText widgets-in-text)"
export EMULATOR="$emulator" EXAMPLES="$root/Examples"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export WORK="$work"

# One namespace per run: its loopback is the only interface, so mDNS stays inside it.
timeout --signal=KILL 300 /usr/bin/unshare -n -- /bin/bash -c '
    set -euo pipefail
    ip link set lo up
    emulator_pid=""
    trap '"'"'[ -z "$emulator_pid" ] || kill "$emulator_pid" 2>/dev/null || true'"'"' EXIT
    # Starts the emulator with the given options; waits for its "ready" line (30 s at most).
    start_emulator() {
        "$EMULATOR" --mdns --media simulate --state-dir "$WORK/state" "$@" 2>"$WORK/emulator.err" &
        emulator_pid=$!
        for _ in $(seq 300); do
            grep -q "^ready$" "$WORK/emulator.err" && return 0
            kill -0 "$emulator_pid" 2>/dev/null || break
            sleep 0.1
        done
        cat "$WORK/emulator.err" >&2
        echo "error: cast-emulator did not start" >&2
        exit 1
    }
    stop_emulator() { kill "$emulator_pid"; wait "$emulator_pid" || true; emulator_pid=""; }
    root_pem="$WORK/state/auth-chain/root.pem"

    echo "==> running Examples/CastAVideo against cast-emulator over mDNS"
    start_emulator
    "$CAST_A_VIDEO" https://media.example.invalid/movie.mp4 --interface lo --trust-root "$root_pem" \
        | tee "$WORK/a.out"
    grep -q "^found Virtual Cast at 127.0.0.2:8009$" "$WORK/a.out"
    grep -q "^status: PLAYING" "$WORK/a.out"
    grep -q "^done$" "$WORK/a.out"
    echo "==> running Examples/WidgetsInText against cast-emulator over mDNS"
    "$WIDGETS_IN_TEXT" https://media.example.invalid/movie.mp4 --interface lo --trust-root "$root_pem" \
        | tee "$WORK/c.out"
    grep -q "Cast button: connected" "$WORK/c.out"
    grep -q "Mini controller: ▶ A video" "$WORK/c.out"
    stop_emulator

    echo "==> running Examples/QueueAndChannel against cast-emulator over mDNS"
    start_emulator --config "$EXAMPLES/QueueAndChannel/emulator.json"
    "$QUEUE_AND_CHANNEL" --interface lo --trust-root "$root_pem" | tee "$WORK/b.out"
    grep -q "^queue: Intro, Second, Third$" "$WORK/b.out"
    grep -q "^queue: Intro, Fourth, Second, Third$" "$WORK/b.out"
    grep -q "^reply: {\"text\":\"hello from the sender\"}$" "$WORK/b.out"
    grep -q "^done$" "$WORK/b.out"
    stop_emulator
' || die "an example failed against cast-emulator"
say "examples passed"
