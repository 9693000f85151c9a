#!/usr/bin/env bash
# Checks the public API of the library products against the committed listing in api/.
#
#   scripts/api.sh            fail, printing the diff, when a module's public surface changed
#   scripts/api.sh --update   rewrite api/<Module>.txt from the built modules
#
# Runs after `swift build`: the symbol graphs come from the built modules. A change of surface
# is then a visible diff in review: update the listing in the same commit as the change.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

update=0
case "${1:-}" in
    --update) update=1 ;;
    "") ;;
    *) echo "usage: scripts/api.sh [--update]" >&2; exit 2 ;;
esac

# The modules of the library products in Package.swift: what users build on.
modules=(CastCore CastSender CastSenderNotifications CastSenderUI CastEmulator TerminalUI)

modules_dir="$(swift build --show-bin-path)/Modules"
[ -d "$modules_dir" ] || { echo "error: $modules_dir missing: run swift build first" >&2; exit 1; }
graphs="$root/.build/api-graphs"
rm -rf "$graphs"
mkdir -p "$graphs" "$root/api"

changed=0
for module in "${modules[@]}"; do
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
    listing="$graphs/$module.txt"
    python3 "$root/scripts/api-listing.py" "$graphs/$module" "$module" >"$listing"
    committed="$root/api/$module.txt"
    if [ "$update" = 1 ]; then
        cp "$listing" "$committed"
        echo "==> $module: $(wc -l <"$committed" | tr -d ' ') public symbols in api/$module.txt"
    elif ! diff -u "$committed" "$listing" >"$graphs/$module.diff" 2>&1; then
        echo "error: the public API of $module differs from api/$module.txt:" >&2
        cat "$graphs/$module.diff" >&2
        changed=1
    else
        echo "==> $module: public API unchanged ($(wc -l <"$committed" | tr -d ' ') symbols)"
    fi
done
if [ "$changed" = 1 ]; then
    echo "error: run scripts/api.sh --update and commit api/ with the change" >&2
    exit 1
fi
