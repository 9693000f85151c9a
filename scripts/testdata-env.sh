# Sourced by the test, fuzz and sanitizer scripts (after `root` and `die` are set): finds the
# shared test data beside the checkout unless the environment names it, and exports it.
#   CAST_TESTDATA_DIR      real Cast device certificates and auth vectors (openscreen-cast)
#   CAST_REAL_DEVICES_DIR  payloads captured from real Cast hardware (real-devices)

# Prints the first of the candidate directories under shared/testdata that holds `marker`.
cast_find_testdata() {
    local name="$1" marker="$2" candidate
    for candidate in "$root/../shared/testdata/$name" "/work/shared/testdata/$name"; do
        if [ -e "$candidate/$marker" ]; then (cd "$candidate" && pwd); return 0; fi
    done
    return 1
}

CAST_TESTDATA_DIR="${CAST_TESTDATA_DIR:-$(cast_find_testdata openscreen-cast . || true)}"
[ -d "${CAST_TESTDATA_DIR:-}" ] || die "device-auth test data not found beside the checkout (shared/testdata/openscreen-cast); set CAST_TESTDATA_DIR"
export CAST_TESTDATA_DIR
CAST_REAL_DEVICES_DIR="${CAST_REAL_DEVICES_DIR:-$(cast_find_testdata real-devices messages.jsonl || true)}"
[ -f "${CAST_REAL_DEVICES_DIR:-}/messages.jsonl" ] || die "real-device payloads not found beside the checkout (shared/testdata/real-devices); set CAST_REAL_DEVICES_DIR"
export CAST_REAL_DEVICES_DIR
