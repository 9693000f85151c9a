#!/usr/bin/env bash
# Builds the release `cast` and checks what Package.swift's staticRuntimeInRelease promises:
# the binary links, runs, prints its version, and loads no Swift or Foundation shared
# library (the runtime and Foundation are inside it). OpenSSL stays a shared system library.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

die() { printf 'error: %s\n' "$*" >&2; exit 1; }

swift build -c release --product cast
cast="$(swift build -c release --show-bin-path)/cast"
[ -x "$cast" ] || die "$cast was not built"

version="$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/CastCommandLine/CastCommandLine.swift)"
output="$("$cast" --version)" || die "$cast --version failed"
[ "$output" = "cast $version" ] || die "$cast --version printed '$output', not 'cast $version'"

libraries="$(ldd "$cast")"
if grep -E 'libswift|libFoundation|lib_FoundationICU|libdispatch' <<<"$libraries"; then
    die "the release cast loads the Swift libraries above; it should carry them (-static-stdlib)"
fi
# The command line imports only FoundationEssentials: Foundation, its ICU data and
# FoundationInternationalization would double the binary and add 4–5 MiB to every run
# (docs/performance.md, "The command line"). A module under `cast` that imports Foundation
# brings them back; this names the symbols that show it.
foundation_symbols="$(nm "$cast" | grep -cE '[$]s10Foundation|[$]s30FoundationInternationalization|swift_ucol_open' || true)"
[ "$foundation_symbols" = 0 ] || die "the release cast links $foundation_symbols symbols of Foundation or its ICU; \
a module under it imports Foundation instead of FoundationEssentials"
grep -q 'libssl' <<<"$libraries" || die "the release cast does not load the system OpenSSL:
$libraries"
# The functions of Sources/cast/symbol-order.txt come first in the binary (Package.swift,
# castSymbolOrder); a list most of whose names the binary no longer has has gone stale.
listed="$(grep -c . Sources/cast/symbol-order.txt || true)"
found="$(comm -12 <(nm "$cast" | awk '{print $3}' | sort -u) <(sort -u Sources/cast/symbol-order.txt) | wc -l)"
printf 'release cast: %s of the %s functions of Sources/cast/symbol-order.txt found, placed first\n' "$found" "$listed"
if [ $((found * 5)) -lt $((listed * 4)) ]; then
    printf 'warning: the symbol order list is stale (under 80%% of it found): each command touches more of\n' >&2
    printf '  the binary than it needs. Regenerate it with scripts/symbol-order.sh (needs valgrind).\n' >&2
fi
printf 'release cast: %s, %s MB, shared libraries: %s\n' "$output" "$(( $(stat -c %s "$cast") / 1000000 ))" \
    "$(awk '{print $1}' <<<"$libraries" | grep -v vdso | tr '\n' ' ')"
