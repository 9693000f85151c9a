#!/usr/bin/env bash
# Tests scripts/json-members.py on temporary copies of CastCore: the copy as it is must pass
# --check; a member added to a marked type, a generated part edited by hand and a CodingKeys
# case without its property must each fail --check (or generation) naming the file; and
# regenerating must bring the new member into both conformances.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
script="$root/scripts/json-members.py"
run_check() { python3 "$script" --root "$work/tree" "$@"; }
. "$root/scripts/tests/harness.sh"

fresh_copy() {
    rm -rf "$work/tree"
    mkdir -p "$work/tree/Sources"
    cp -R "$root/Sources/CastCore" "$work/tree/Sources/CastCore"
}

volume="$work/tree/Sources/CastCore/Media/Volume.swift"

# 1. The unchanged copy is up to date.
fresh_copy
if output="$(run_check --check 2>&1)"; then
    printf 'ok: the unchanged copy passes\n'
else
    fail "the unchanged copy does not pass"$'\n'"$output"
fi

# 2. A member added to a marked type (property and coding key) leaves the generated part stale.
fresh_copy
python3 - "$volume" <<'PY'
import pathlib, sys
path = pathlib.Path(sys.argv[1])
text = path.read_text()
text = text.replace("    public var muted: Bool?\n", "    public var muted: Bool?\n    public var stepInterval: Double?\n", 1)
text = text.replace("        case level, muted\n", "        case level, muted, stepInterval\n", 1)
path.write_text(text)
PY
expect_failure "a new member is detected" "out of date.*" --check
grep -q 'Sources/CastCore/Media/Volume.swift' <<<"$(run_check --check 2>&1 || true)" \
    || fail "the stale file is not named"

# 3. Regenerating writes the member into both conformances, and then --check passes.
run_check >/dev/null
if grep -q 'stepInterval: try object.decodeIfPresent("stepInterval")' "$volume" \
    && grep -q 'try writer.member("stepInterval", stepInterval)' "$volume" \
    && run_check --check >/dev/null 2>&1; then
    printf 'ok: regeneration adds the member to decoding and encoding\n'
else
    fail "regeneration did not add stepInterval to both conformances"$'\n'"$(sed -n '/Generated JSON members/,$p' "$volume")"
fi

# 4. A generated part edited by hand is stale.
fresh_copy
sed -i 's/try writer.member("muted", muted)/try writer.member("mute", muted)/' "$volume"
expect_failure "a hand edit of the generated part is detected" "Volume.swift" --check

# 5. A coding key that names no stored property is an error naming the file and line.
fresh_copy
sed -i 's/        case level, muted$/        case level, muted, missing/' "$volume"
expect_failure "a coding key without its property is an error" "Volume.swift:[0-9]+: Volume: CodingKeys case missing names no stored property" --check

finish json-members
