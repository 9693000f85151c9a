# Sourced by the test, fuzz and sanitizer scripts (after `root`, `say` and `die` are set): finds
# the external test data beside the checkout unless the environment names it, and exports it.
#   CAST_TESTDATA_DIR      real Cast device certificates and auth vectors (openscreen-cast)
#   CAST_REAL_DEVICES_DIR  payloads captured from real Cast hardware (real-devices)
# Neither is part of the repository. Without them the suites that read them skip, each with a
# line naming the data; CAST_REQUIRE_TESTDATA=1 (set by .ci/run) makes their absence an error.

# Prints the first of the candidate directories under shared/testdata that holds `marker`.
cast_find_testdata() {
    local name="$1" marker="$2" candidate
    for candidate in "$root/../shared/testdata/$name" "/work/shared/testdata/$name"; do
        if [ -e "$candidate/$marker" ]; then (cd "$candidate" && pwd); return 0; fi
    done
    return 1
}

# Reports test data that is missing: an error under CAST_REQUIRE_TESTDATA=1, else a notice.
cast_missing_testdata() {
    if [ "${CAST_REQUIRE_TESTDATA:-0}" = 1 ]; then die "$1 (CAST_REQUIRE_TESTDATA=1)"; fi
    say "skipping the suites that need it: $1"
}

CAST_TESTDATA_DIR="${CAST_TESTDATA_DIR:-$(cast_find_testdata openscreen-cast . || true)}"
if [ -d "${CAST_TESTDATA_DIR:-}" ]; then
    export CAST_TESTDATA_DIR
else
    unset CAST_TESTDATA_DIR
    cast_missing_testdata "device-auth test data not found (openscreen-cast: the files of test/data/cast/ in Chromium's Open Screen repository, github.com/chromium/openscreen, with real Cast device certificate chains); put a copy at ../shared/testdata/openscreen-cast beside the checkout or set CAST_TESTDATA_DIR"
fi
CAST_REAL_DEVICES_DIR="${CAST_REAL_DEVICES_DIR:-$(cast_find_testdata real-devices messages.jsonl || true)}"
if [ -f "${CAST_REAL_DEVICES_DIR:-}/messages.jsonl" ]; then
    export CAST_REAL_DEVICES_DIR
else
    unset CAST_REAL_DEVICES_DIR
    cast_missing_testdata "real-device payloads not found (real-devices/messages.jsonl: JSON that real Chromecasts, speakers, displays and TVs sent, gathered from public issue threads and library fixtures, kept with the project's shared data, not in this repository); put it at ../shared/testdata/real-devices beside the checkout or set CAST_REAL_DEVICES_DIR"
fi
