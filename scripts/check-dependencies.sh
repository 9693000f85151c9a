#!/usr/bin/env bash
# Checks the layering of swift-cast: every `import X` in Sources/<Module>/**/*.swift must name a
# module that <Module> may import, and every dependency Package.swift gives a target must be one
# it may import. The rules are the table between the `allowed-imports` markers in
# docs/architecture.md, the one place the layering is written down.
#
#     scripts/check-dependencies.sh [--root DIR] [--skip-package]
#
# --root DIR       check the tree at DIR instead of this checkout (the negative test uses a copy)
# --skip-package   check the imports only, not Package.swift (no `swift package` run)
#
# Exits 0 when everything agrees, 1 with one line per violation (file:line: message) otherwise,
# 2 when the rules cannot be read.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
check_package=1
while [ $# -gt 0 ]; do
    case "$1" in
        --root) root="$(cd "$2" && pwd)"; shift 2 ;;
        --skip-package) check_package=0; shift ;;
        *) printf 'usage: %s [--root DIR] [--skip-package]\n' "$0" >&2; exit 2 ;;
    esac
done

rules_file="$root/docs/architecture.md"
[ -f "$rules_file" ] || { printf 'error: %s is missing\n' "$rules_file" >&2; exit 2; }

# MARK: rules
# Each table row between the markers: | `Module` | layer | `A`, `B` | `Foundation`, `Glibc` |
# A cell of `—` allows nothing. Prints "Module<TAB>allowed allowed …" per row.
rules="$(
    awk '
        /<!-- allowed-imports:begin -->/ { inside = 1; next }
        /<!-- allowed-imports:end -->/ { inside = 0; next }
        inside && /^\|/ {
            n = split($0, cell, "|")
            if (n < 6) next
            module = cell[2]; gsub(/[` ]/, "", module)
            if (module == "" || module == "module" || module ~ /^-+$/) next
            allowed = cell[4] "," cell[5]
            gsub(/[`—]/, "", allowed); gsub(/,/, " ", allowed); gsub(/  +/, " ", allowed)
            sub(/^ +/, "", allowed); sub(/ +$/, "", allowed)
            printf "%s\t%s\n", module, allowed
        }
    ' "$rules_file"
)"
[ -n "$rules" ] || { printf 'error: no allowed-imports table in %s\n' "$rules_file" >&2; exit 2; }

allowed_for() { # module -> allowed list, or the word UNKNOWN
    local line
    line="$(printf '%s\n' "$rules" | awk -F'\t' -v m="$1" '$1 == m { print $2; found = 1 } END { if (!found) print "UNKNOWN" }')"
    printf '%s' "$line"
}

is_allowed() { # allowed-list module
    case " $1 " in *" $2 "*) return 0 ;; *) return 1 ;; esac
}

violations=0
report() {
    printf '%s\n' "$*"
    violations=$((violations + 1))
}

# Prints file:line:module for every import in the Swift files of a directory, whatever the
# import's attributes, access level or kind (`import struct X.Y` counts as X).
imports_in() {
    find "$1" -name '*.swift' -print0 | sort -z | xargs -0 -r awk '
        {
            text = $0
            sub(/^[ \t]+/, "", text)
            while (text ~ /^@[A-Za-z_]+(\([^)]*\))?[ \t]+/) sub(/^@[A-Za-z_]+(\([^)]*\))?[ \t]+/, "", text)
            sub(/^(public|package|internal|fileprivate|private)[ \t]+/, "", text)
            if (text !~ /^import[ \t]+/) next
            sub(/^import[ \t]+/, "", text)
            sub(/^(struct|class|enum|protocol|typealias|func|var|let)[ \t]+/, "", text)
            match(text, /^[A-Za-z_][A-Za-z0-9_]*/)
            if (RLENGTH > 0) printf "%s:%d:%s\n", FILENAME, FNR, substr(text, 1, RLENGTH)
        }
    '
}

# MARK: imports
for dir in "$root"/Sources/*/; do
    module="$(basename "$dir")"
    [ -n "$(find "$dir" -name '*.swift' -print -quit)" ] || continue # module maps only
    allowed="$(allowed_for "$module")"
    if [ "$allowed" = UNKNOWN ]; then
        report "Sources/$module: module has no row in the allowed-imports table of docs/architecture.md"
        continue
    fi
    while IFS=: read -r file line imported; do
        [ "$imported" = "$module" ] && continue
        is_allowed "$allowed" "$imported" ||
            report "${file#"$root"/}:$line: $module may not import $imported (allowed: ${allowed:-nothing})"
    done < <(imports_in "$dir")
done

# MARK: Package.swift
# Every dependency of a target under Sources/ must be allowed for it, and every project module
# a target imports must be declared (not only reachable through another target).
if [ "$check_package" = 1 ]; then
    command -v python3 >/dev/null || { printf 'error: python3 is needed for the Package.swift check\n' >&2; exit 2; }
    manifest="$(cd "$root" && swift package dump-package 2>/dev/null)" ||
        { printf 'error: swift package dump-package failed in %s\n' "$root" >&2; exit 2; }
    while IFS=$'\t' read -r target dependency; do
        allowed="$(allowed_for "$target")"
        [ "$allowed" = UNKNOWN ] && continue # test support targets; Sources/ modules without a row are reported above
        is_allowed "$allowed" "$dependency" ||
            report "Package.swift: target $target may not depend on $dependency (allowed: ${allowed:-nothing})"
    done < <(
        printf '%s' "$manifest" | python3 -c '
import json, sys
package = json.load(sys.stdin)
for target in package["targets"]:
    if target["type"] not in ("regular", "executable"):
        continue
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                print(target["name"] + "\t" + dependency[kind][0])
'
    )
    declared="$(
        printf '%s' "$manifest" | python3 -c '
import json, sys
package = json.load(sys.stdin)
for target in package["targets"]:
    names = []
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.append(dependency[kind][0])
    print(target["name"] + "\t" + " ".join(names))
'
    )"
    project_modules="$(printf '%s\n' "$declared" | cut -f1 | tr '\n' ' ')"
    for dir in "$root"/Sources/*/; do
        module="$(basename "$dir")"
        deps="$(printf '%s\n' "$declared" | awk -F'\t' -v m="$module" '$1 == m { print $2 }')"
        for imported in $(imports_in "$dir" | cut -d: -f3 | sort -u); do
            [ "$imported" = "$module" ] && continue
            is_allowed "$project_modules" "$imported" || continue
            is_allowed "$deps" "$imported" ||
                report "Package.swift: target $module imports $imported but does not list it as a dependency"
        done
    done
fi

if [ "$violations" -gt 0 ]; then
    printf 'error: %d import(s) or dependencies break the layering of docs/architecture.md\n' "$violations" >&2
    exit 1
fi
printf 'module dependencies match docs/architecture.md\n'
