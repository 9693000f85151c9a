#!/usr/bin/env bash
# Runs cast-bench with a release build, side by side with PyChromecast 14.
# Creates (or reuses) the Python virtual environment .venv from
# scripts/requirements-interop.txt, as scripts/test.sh does, builds cast-emulator and
# cast-bench in release, and runs every group (or the arguments given: --rows, --quick).
#
#   scripts/bench.sh                        # the full table
#   scripts/bench.sh --rows pychromecast    # only the side-by-side rows
#   scripts/bench.sh --quick                # a fast smoke run
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

command -v swift >/dev/null || die "swift is not on PATH (install the Swift 6 toolchain)"

# MARK: Python peer
venv="$root/.venv"
python=""
if command -v python3 >/dev/null && python3 -c 'import venv, ensurepip' 2>/dev/null; then
    if [ ! -x "$venv/bin/python" ]; then
        say "creating $venv"
        python3 -m venv "$venv" || die "python3 -m venv failed"
    fi
    if ! "$venv/bin/python" -c 'import pychromecast' 2>/dev/null; then
        say "installing PyChromecast into $venv"
        "$venv/bin/pip" install -q --disable-pip-version-check -r "$root/scripts/requirements-interop.txt" \
            || die "pip install failed"
    fi
    python="$venv/bin/python"
else
    say "python3 with venv is not available: the PyChromecast column will be empty"
fi

# MARK: build and run
say "swift build -c release (cast-emulator, cast-bench, cast)"
swift build -c release --product cast-emulator >&2
swift build -c release --product cast-bench >&2
swift build -c release --product cast >&2
bin="$(swift build -c release --show-bin-path)"
say "cast-bench $*"
CAST_BENCH_PYTHON="$python" CAST_BENCH_EMULATOR="$bin/cast-emulator" "$bin/cast-bench" "$@"
