#!/usr/bin/env bash
# Counts what the test suites stand on: how many tests sit in files that open sockets or start
# processes, how many run in memory, the sleeps left in Tests/, the files that wait on the
# "patience" hang guard, and the largest source files.
#
#     scripts/test-census.sh [--root DIR] [--files]
#
# --files   also list each test file with its count and layer
#
# A test counts once per `@Test` (a parameterized test once, whatever its arguments). A file is
# on the socket layer when it names something that opens a socket or starts a process: the
# listeners, connections and servers of CastNet, a started VirtualDevice or fleet, the rigs of
# the test targets that start one, mDNS sockets, `Process`, `runProgram`, tmux.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
list_files=0
while [ $# -gt 0 ]; do
    case "$1" in
        --root) root="$(cd "$2" && pwd)"; shift 2 ;;
        --files) list_files=1; shift ;;
        *) printf 'usage: %s [--root DIR] [--files]\n' "$0" >&2; exit 2 ;;
    esac
done
cd "$root"

socket_pattern='EndToEndDeviceAuthTests\.device\(|(VirtualDevice|VirtualDeviceRig|EndToEndRig|DeviceFleet|DeviceFixture|Interop|ServerTestDevices|LocalMediaServer|EmulatorChild|Fixture|Rig|Pair)\b[^/]*\.(start|startDevice|started|runScript|startGroupFleet)\(|VirtualDevice\(|DeviceFleet\(|\.start\(\) *(async)?|CastListener|CastConnection\.connect|TCPConnection\.connect|TCPListener|HTTPServer\(|HTTPClient\(|HTTPClient\.|UDPSocket\(|MDNSBrowser\(|MDNSResponder\(|MDNSDeviceAdvertiser\(|LoopbackPortListener|StreamChannel\.connect|Process\(\)|runProgram\(|TmuxDriver|RefusingPort|ChildProcess|TestProcess|unshare|\bsocket\(|socketpair\('

total=0
socket_tests=0
memory_tests=0
socket_files=0
memory_files=0
while IFS= read -r file; do
    count="$(grep -cE '^\s*@Test\b' "$file" || true)"
    [ "$count" -gt 0 ] || continue
    total=$((total + count))
    if grep -qE "$socket_pattern" "$file"; then
        socket_tests=$((socket_tests + count))
        socket_files=$((socket_files + 1))
        layer=socket
    else
        memory_tests=$((memory_tests + count))
        memory_files=$((memory_files + 1))
        layer=memory
    fi
    [ "$list_files" = 1 ] && printf '%-7s %4d  %s\n' "$layer" "$count" "$file"
done < <(find Tests -name '*.swift' | sort)

sleeps="$({ grep -rhoE 'Task\.sleep|usleep\(' Tests --include='*.swift' || true; } | wc -l | tr -d ' ')"
patience="$({ grep -rlE 'TestTiming\.patience|\.patience\b' Tests --include='*.swift' || true; } | wc -l | tr -d ' ')"
# Waits for a condition by polling in real time (the rigs' `eventually`), whatever their bound.
polling="$({ grep -rlE '\beventually *(\(|\{)' Tests --include='*.swift' || true; } | wc -l | tr -d ' ')"
# The in-memory tests' guard against a hang: never reached by a passing test, not load-bound.
hang_guards="$({ grep -rlE 'TestTiming\.hangGuard' Tests --include='*.swift' || true; } | wc -l | tr -d ' ')"

printf 'tests:                      %d\n' "$total"
printf '  in files on sockets/processes: %d (%d files)\n' "$socket_tests" "$socket_files"
printf '  in memory:                     %d (%d files)\n' "$memory_tests" "$memory_files"
printf 'Task.sleep/usleep in Tests: %s\n' "$sleeps"
printf 'files using the patience wait: %s\n' "$patience"
printf 'files polling with eventually: %s\n' "$polling"
printf 'files using the in-memory hang guard: %s\n' "$hang_guards"
printf 'largest source files (lines):\n'
find Sources -name '*.swift' -print0 | xargs -0 wc -l | grep -v ' total$' | sort -rn | head -8 |
    awk '{ printf "  %5d  %s\n", $1, $2 }'
