#!/usr/bin/env bash
# Builds and runs every test of swift-cast: unit, loopback, interop and fault suites.
# Installs what the suites need (a Python virtual environment with the third-party Cast
# clients) and fails loudly when a prerequisite is missing.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

say() { printf '==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# MARK: prerequisites (the Debian packages the suites run)
. "$root/scripts/prerequisites.sh"

# MARK: Python peers (pychromecast, catt, zeroconf, nichromecast) for the interop suites, and
# Pillow (libjpeg-turbo) for the JPEG decoder's progressive and greyscale files
venv="$root/.venv"
if [ ! -x "$venv/bin/python" ]; then
    say "creating $venv"
    python3 -m venv "$venv" || die "python3 -m venv failed"
fi
if ! "$venv/bin/python" -c 'import pychromecast, zeroconf, catt, nichromecast, PIL' 2>/dev/null; then
    say "installing pychromecast, catt, zeroconf, nichromecast and Pillow into $venv"
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$root/scripts/requirements-interop.txt" \
        || die "pip install failed"
fi
export CAST_TEST_PYTHON="$venv/bin/python"
. "$root/scripts/testdata-env.sh"

# MARK: format
say "swift format lint --strict"
swift format lint --strict -r Package.swift Sources Tests Examples

# MARK: layering
# Every import and target dependency against the allowed-imports table of docs/architecture.md,
# then the check's own test: forbidden imports planted in a copy of the tree must fail it.
say "module dependencies (docs/architecture.md)"
scripts/check-dependencies.sh
scripts/tests/check-dependencies-test.sh
# One name, one type: no two modules declare a type of the same name for different things.
say "type names unique across modules (scripts/duplicate-type-names.py)"
python3 scripts/duplicate-type-names.py || die "two modules declare types of the same name (listed above)"

# MARK: generated JSON members
# CastCore's fast JSON conformances are written from each type's member list; a type changed
# without regenerating them fails here, and so does the generator's own test.
say "generated JSON members (scripts/json-members.py --check)"
python3 scripts/json-members.py --check
scripts/tests/json-members-test.sh

# MARK: build and test
say "swift build"
swift build -Xswiftc -warnings-as-errors
# The 1,000-connection scale suite saturates both cores for several seconds; it runs in a
# process of its own so the timing-sensitive suites (HTTP timeouts, heartbeats) are not starved.
heavy="CastConnectionScaleTests"
say "swift build --build-tests"
swift build --build-tests -Xswiftc -warnings-as-errors

# MARK: examples
# The packages under Examples/ depend on swift-cast by path, as an app would; each builds, and
# the casting ones run against cast-emulator discovered over mDNS in a loopback-only namespace.
say "examples (scripts/examples.sh)"
scripts/examples.sh || die "an example failed"

# MARK: documentation
# The DocC catalogs of the SDK, the widgets and the emulator, free of warnings.
say "docc (CastSender, CastSenderUI, CastEmulator)"
scripts/docs.sh

# A change of the products' public surface must come with its listing (api/).
say "public API against api/"
scripts/api.sh

# MARK: release command line
# The release `cast` carries the Swift runtime and Foundation (Package.swift,
# staticRuntimeInRelease); it must link, run, and load no Swift shared library.
say "release cast with the static Swift runtime (scripts/check-release-cli.sh)"
scripts/check-release-cli.sh

# MARK: README
# The README's walkthrough, run as written in a namespace with a home directory of its own.
say "the README walkthrough (scripts/tests/readme-test.sh)"
scripts/tests/readme-test.sh >.build/readme-test.log 2>&1 || {
    tail -n 60 .build/readme-test.log >&2
    die "the README walkthrough failed (.build/readme-test.log)"
}

# At most 16 tests run at once. Unbounded, all ~1,200 start together on two cores and each
# waits tens of seconds for the CPU, so every deadline in the suite (heartbeats, handshakes,
# request timeouts) has to outlast that storm; sixteen keep both cores busy, and the suite
# takes no longer.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=16

# Everything a lane needs was installed above: a test that finds a prerequisite missing (a
# Python peer, ffmpeg, VLC, tmux, root) fails instead of skipping itself
# (Tests/CastTestSupport/TestPrerequisite.swift), so no lane is silently left out here. The
# shared test data is outside the repository: its suites skip without it (announced above)
# unless CAST_REQUIRE_TESTDATA=1, as .ci/run sets.
export CAST_REQUIRE_ALL_LANES=1

# Runs `swift test` with a deadline, so a hang fails the script instead of stalling it.
run_tests() {
    local label="$1"; shift
    say "swift test ($label)"
    timeout --signal=KILL 900 swift test --skip-build "$@" || die "swift test ($label) failed or timed out"
}
run_tests "all suites but $heavy" --skip "$heavy"
run_tests "$heavy" --filter "$heavy"

# MARK: browser
# A device's TV screen in headless Chromium, inside a loopback-only namespace; screenshots of
# each state go to .build/artifacts/screen/.
say "screen in a browser (scripts/screen-browser-test.sh)"
scripts/screen-browser-test.sh || die "the screen browser test failed"

# MARK: fuzzing
# Every libFuzzer target (10 decoders, 4 state machines) for a short run: 20 s each, about
# 4.7 min in all, as the 9 decoders at 30 s took before (scripts/fuzz.sh --time N or --runs N
# for longer ones).
say "fuzzing each decoder and state machine for ${CAST_FUZZ_SECONDS:-20} s"
scripts/fuzz.sh --time "${CAST_FUZZ_SECONDS:-20}"

say "all tests passed"
