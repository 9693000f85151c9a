#!/usr/bin/env bash
# Regenerates Sources/cast/symbol-order.txt: the functions of the release `cast` that one
# `cast play` runs, in the order it first runs them. Package.swift hands the file to the
# linker (lld's --symbol-ordering-file), which places those functions together at the start
# of the code, so a command touches about 1 MiB of the binary's pages instead of most of its
# 12 MiB (the kernel maps 64 KiB around every page a process faults in): `cast play`'s peak
# memory goes from about 22 to 18 MiB (docs/performance.md, "The command line").
#
# Run it after changes that rename many functions on the command's path; a stale file costs
# memory, never correctness (names the binary no longer has are ignored). Needs valgrind.
#
#   scripts/symbol-order.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

die() { printf 'error: %s\n' "$*" >&2; exit 1; }

command -v valgrind >/dev/null || die "valgrind is not installed (Debian: apt-get install valgrind)"
command -v objcopy >/dev/null || die "objcopy is not installed (Debian: apt-get install binutils)"

# The link reads the list, so it must exist, if only empty, before the first build.
[ -f Sources/cast/symbol-order.txt ] || : >Sources/cast/symbol-order.txt
swift build -c release --product cast
swift build -c release --product cast-emulator
bin="$(swift build -c release --show-bin-path)"

work="$(mktemp -d)"
emulator_pid=""
cleanup() {
    [ -n "$emulator_pid" ] && kill "$emulator_pid" 2>/dev/null && wait "$emulator_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

# valgrind 3.19 cannot read the DWARF 5 debug information Swift writes; the symbol table is
# all it needs.
objcopy --strip-debug "$bin/cast" "$work/cast"

# A device on loopback with ephemeral ports and no mDNS: nothing leaves the machine. The
# device's keys and the command's saved session go to a state directory of this run.
export XDG_STATE_HOME="$work/state"
"$bin/cast-emulator" --address 127.0.0.1 --cast-port 0 --http-port 0 --https-port 0 --media simulate \
    >"$work/emulator.log" 2>&1 &
emulator_pid=$!
port=""
for _ in $(seq 1 100); do
    port="$(sed -n 's/.* cast=\([0-9]*\) .*/\1/p' "$work/emulator.log" | head -1)"
    [ -n "$port" ] && grep -q '^ready' "$work/emulator.log" && break
    sleep 0.1
done
[ -n "$port" ] || die "cast-emulator did not start: $(cat "$work/emulator.log")"

# The commands people run most, each in a process of its own: a play that starts a session,
# commands that rejoin it, a second play on the running app, and a stop.
run=0
profile() {
    run=$((run + 1))
    valgrind --tool=callgrind --demangle=no --dump-instr=no --callgrind-out-file="$work/callgrind.$run" \
        "$work/cast" -d "127.0.0.1:$port" --insecure "$@" >"$work/command.log" 2>&1 ||
        die "cast $* under valgrind failed: $(tail -5 "$work/command.log")"
}
profile play http://127.0.0.1:9/order.mp4 --content-type video/mp4 --title Order
profile status
profile pause
profile seek 30
profile play http://127.0.0.1:9/second.mp4 --content-type video/mp4
profile stop

python3 - Sources/cast/symbol-order.txt "$work"/callgrind.* <<'PYTHON'
import re
import sys

target, sources = sys.argv[1], sys.argv[2:]
# callgrind names each object and function once as "(id) name" and then by id alone.
pattern = re.compile(r'^(c?fn|c?ob)=\((\d+)\)(?: (.*))?$')
order, seen = [], set()
for source in sorted(sources, key=lambda path: int(path.rsplit('.', 1)[1])):
    objects, functions = {}, {}
    current_object = None
    for line in open(source):
        match = pattern.match(line.rstrip('\n'))
        if not match:
            continue
        kind, key, name = match.groups()
        if kind in ('ob', 'cob'):
            if name:
                objects[key] = name
            if kind == 'ob':
                current_object = objects.get(key)
            continue
        if name:
            functions[key] = name
        if kind != 'fn' or not current_object or not current_object.endswith('/cast'):
            continue
        function = functions.get(key)
        # Addresses stand for code without a symbol: nothing to name.
        if function and not function.startswith('0x') and function not in seen:
            seen.add(function)
            order.append(function)
with open(target, 'w') as out:
    out.write('\n'.join(order) + '\n')
print(f'{target}: {len(order)} functions of {len(sources)} commands')
PYTHON

# SwiftPM does not know the link reads the list: remove the binary so the next build links
# with the new one.
rm -f "$bin/cast"
