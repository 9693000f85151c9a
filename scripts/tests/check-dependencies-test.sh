#!/usr/bin/env bash
# Tests scripts/check-dependencies.sh on temporary copies of the tree: the copy as it is must
# pass, and each forbidden import or dependency planted in a copy must fail with a message
# naming the file and line (or the Package.swift target).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
check="$root/scripts/check-dependencies.sh"
run_check() { "$check" --root "$work/tree" "$@"; }
. "$root/scripts/tests/harness.sh"

# Makes a fresh copy of what the check reads: the rules, the sources and the manifest.
fresh_copy() {
    rm -rf "$work/tree"
    mkdir -p "$work/tree/docs"
    cp "$root/docs/architecture.md" "$work/tree/docs/"
    cp "$root/Package.swift" "$work/tree/"
    cp -R "$root/Sources" "$work/tree/Sources"
}

# 1. The unchanged tree passes (imports only; the manifest is checked in case 5).
fresh_copy
if output="$(run_check --skip-package 2>&1)"; then
    printf 'ok: the unchanged tree passes\n'
else
    fail "the unchanged tree does not pass"$'\n'"$output"
fi

# 2. An import that runs up: the wire format importing the I/O module.
fresh_copy
target="Sources/CastCore/Framing/$(ls "$root/Sources/CastCore/Framing" | head -n 1)"
line="$(($(wc -l <"$work/tree/$target") + 2))"
printf '\nimport CastNet\n' >>"$work/tree/$target"
expect_failure "an upward import (CastCore imports CastNet)" \
    "^$target:$line: CastCore may not import CastNet" --skip-package

# 3. An import that runs sideways, with attributes and an access level: the virtual device
#    importing the SDK.
fresh_copy
target="Sources/CastEmulator/Engine/DeviceInstant.swift"
sed -i '1i @preconcurrency public import CastSender' "$work/tree/$target"
expect_failure "a sideways import (CastEmulator imports CastSender)" \
    "^$target:1: CastEmulator may not import CastSender" --skip-package

# 4. A new module with no row in the table.
fresh_copy
mkdir -p "$work/tree/Sources/CastStray"
printf 'import CastCore\n' >"$work/tree/Sources/CastStray/Stray.swift"
expect_failure "a module missing from the table" "^Sources/CastStray: module has no row" --skip-package

# 5. A dependency in Package.swift that runs up.
if command -v swift >/dev/null && command -v python3 >/dev/null; then
    fresh_copy
    sed -i 's/\.target(name: "CastCore")/.target(name: "CastCore", dependencies: ["CastNet"])/' "$work/tree/Package.swift"
    grep -q '"CastCore", dependencies: \["CastNet"\]' "$work/tree/Package.swift" ||
        fail "could not plant the Package.swift dependency (did the CastCore target change shape?)"
    expect_failure "an upward dependency in Package.swift" \
        "^Package.swift: target CastCore may not depend on CastNet"
fi

# 6. The network core reaching for the system: CastNetCore importing the sockets of Glibc, or
#    OpenSSL through CastCrypto, which only CastNet may.
for planted in Glibc CastCrypto; do
    fresh_copy
    target="Sources/CastNetCore/DNS/DNSName.swift"
    sed -i "1i import $planted" "$work/tree/$target"
    expect_failure "CastNetCore importing $planted" "^$target:1: CastNetCore may not import $planted" --skip-package
done

finish dependency-check
