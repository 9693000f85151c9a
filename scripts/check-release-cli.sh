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
printf 'release cast: %s, %s MB, shared libraries: %s\n' "$output" "$(( $(stat -c %s "$cast") / 1000000 ))" \
    "$(awk '{print $1}' <<<"$libraries" | grep -v vdso | tr '\n' ' ')"
