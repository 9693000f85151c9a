# Sourced by the tests of the repository's own scripts (scripts/tests/*-test.sh). The sourcing
# script defines run_check, which runs the script under test on the copy in "$work/tree" with
# the arguments it is given; this file gives it a scratch directory, failure counting, and
# expect_failure and finish.

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

failures=0
fail() {
    printf 'FAIL: %s\n' "$*" >&2
    failures=$((failures + 1))
}

# expect_failure NAME PATTERN [arguments]: run_check must exit 1 and print PATTERN.
expect_failure() {
    local name="$1" pattern="$2"
    shift 2
    local output status=0
    output="$(run_check "$@" 2>&1)" || status=$?
    if [ "$status" -ne 1 ]; then
        fail "$name: expected exit status 1, got $status"$'\n'"$output"
    elif ! grep -qE -- "$pattern" <<<"$output"; then
        fail "$name: output does not match /$pattern/"$'\n'"$output"
    else
        printf 'ok: %s\n' "$name"
    fi
}

# finish LABEL: the summary line, and exit status 1 when any case failed.
finish() {
    if [ "$failures" -gt 0 ]; then
        printf '%d %s test(s) failed\n' "$failures" "$1" >&2
        exit 1
    fi
    printf '%s tests passed\n' "$1"
}
