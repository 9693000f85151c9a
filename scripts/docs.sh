#!/usr/bin/env bash
# Builds the DocC documentation of CastSender, CastSenderUI and CastEmulator with the
# toolchain's `docc`, failing on any warning (a broken symbol link, an undocumented
# parameter). Runs after `swift build`: the symbol graphs come from the built modules.
# Output: .build/docs/<Module>.doccarchive
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

modules_dir="$(swift build --show-bin-path)/Modules"
[ -d "$modules_dir" ] || { echo "error: $modules_dir missing: run swift build first" >&2; exit 1; }
command -v docc >/dev/null || { echo "error: docc is not on PATH (it ships with the toolchain)" >&2; exit 1; }

out="$root/.build/docs"
graphs="$out/symbol-graphs"
rm -rf "$out"
mkdir -p "$graphs"

for module in CastSender CastSenderUI CastEmulator; do
    mkdir -p "$graphs/$module"
    swift-symbolgraph-extract \
        -module-name "$module" \
        -I "$modules_dir" \
        -target "$(uname -m)-unknown-linux-gnu" \
        -minimum-access-level public \
        -skip-synthesized-members \
        -output-dir "$graphs/$module" \
        -Xcc -I -Xcc "$root/Sources/COpenSSL" \
        -Xcc -I -Xcc "$root/Sources/CCastSystem"
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.swift-cast.$module" \
        --warnings-as-errors \
        --output-dir "$out/$module.doccarchive"
    echo "==> $module: $out/$module.doccarchive"
done
