#!/usr/bin/env bash
# Builds the libFuzzer targets of the Fuzz/ package and runs each one against its seed corpus.
#
#   scripts/fuzz.sh [--time SECONDS] [--runs COUNT] [--no-build] [--seeds] [TARGET ...]
#
#   --time SECONDS  stop each target after SECONDS (default 60 unless --runs is given)
#   --runs COUNT    stop each target after COUNT executions
#   --no-build      reuse the fuzzers built by an earlier run
#   --seeds         regenerate Fuzz/Corpus with the fuzz-seeds tool before fuzzing
#   TARGET          a target name without the fuzz- prefix (frame, cast-message, ...); by default
#                   every Fuzz/Sources/fuzz-<name> except the seed generator
#
# Each decoder target runs with -max_len=70000 (a maximum Cast frame plus slack), each
# state-machine target (device-engine, media-client, widgets, status-report, and
# http-server, a program for a hostile HTTP server: programs, not messages) with
# -max_len=1024; all with -rss_limit_mb=2048 (decoding must not
# take unbounded memory) and -timeout=10 (nor unbounded time). New corpus
# entries go to .fuzz-out/corpus/<target>, crashing inputs to .fuzz-out/crashes/<target>/ and
# the fuzzer's output to .fuzz-out/logs/<target>.log. The script prints one row per target
# (executions, executions per second, peak memory) and exits non-zero when any target found a
# crash, a leak, a timeout or an out-of-memory input, printing the path of the input.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

say() { printf '==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 2; }

# MARK: options
all_targets=()
for directory in Fuzz/Sources/fuzz-*/; do
    name="$(basename "$directory")"
    [ "$name" = fuzz-seeds ] || all_targets+=("${name#fuzz-}")
done
seconds=""
runs=""
build=1
seeds=0
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --time) [ $# -ge 2 ] || die "--time needs a number of seconds"; seconds="$2"; shift 2 ;;
        --runs) [ $# -ge 2 ] || die "--runs needs a number of executions"; runs="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        --seeds) seeds=1; shift ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
        -*) die "unknown option $1" ;;
        *) targets+=("${1#fuzz-}"); shift ;;
    esac
done
[ -z "$seconds" ] || [[ "$seconds" =~ ^[0-9]+$ ]] || die "--time wants whole seconds, not $seconds"
[ -z "$runs" ] || [[ "$runs" =~ ^[0-9]+$ ]] || die "--runs wants a count, not $runs"
[ -n "$seconds" ] || [ -n "$runs" ] || seconds=60
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for target in "${targets[@]}"; do
    [ -f "Fuzz/Sources/fuzz-$target/main.swift" ] || die "no fuzz target $target (Fuzz/Sources/fuzz-$target/main.swift)"
done

# MARK: environment
command -v swift >/dev/null || die "swift is not on PATH"
# The Swift backtracer otherwise spends minutes on each crash before libFuzzer sees it.
export SWIFT_BACKTRACE=enable=no
. "$root/scripts/testdata-env.sh"
# The device-auth targets start from the real certificate chains of the Open Screen data.
if [ -z "${CAST_TESTDATA_DIR:-}" ]; then
    kept=()
    for target in "${targets[@]}"; do
        case "$target" in
            crl-bundle|device-auth) say "skipping fuzz-$target: it needs the openscreen-cast test data" ;;
            *) kept+=("$target") ;;
        esac
    done
    targets=("${kept[@]}")
fi

out="$root/.fuzz-out"
mkdir -p "$out/package" "$out/logs"
# SwiftPM names a path dependency after its directory: reach the root through a link named
# swift-cast, whatever the checkout's directory is called (see Fuzz/Package.swift).
ln -sfn "$root" "$out/package/swift-cast"
export SWIFT_CAST_PACKAGE_PATH="$out/package/swift-cast"
# The inner modules (CastNetCore, CastNet, CastAuth, CastCommandLine) are products only when this is set.
export SWIFT_CAST_INTERNAL_PRODUCTS=1

# MARK: seeds
if [ "$seeds" = 1 ]; then
    say "regenerating Fuzz/Corpus"
    swift build --package-path Fuzz --product fuzz-seeds
    "$(swift build --package-path Fuzz --show-bin-path)/fuzz-seeds" "$root/Fuzz/Corpus"
fi

# MARK: build
# SwiftPM hands each sanitizer to the compiler as a separate -sanitize= option, and the
# compiler keeps only the last one, so which of the two instruments the code varies from build
# to build; -Xswiftc passes both in one option. -enable-testing lets fuzz-dns reach the DNS
# codec, which is package API of CastNetCore, through a testable import.
build_flags=(--package-path Fuzz -c release --sanitize=fuzzer --sanitize=address
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing)
if [ "$build" = 1 ]; then
    for target in "${targets[@]}"; do
        say "building fuzz-$target"
        if ! swift build "${build_flags[@]}" --product "fuzz-$target"; then
            # An incremental build of this package, after files were added to the root
            # package, once compiled CastNet with its old list of files ("cannot find
            # 'ReleasingBIO' in scope"). One build from a clean Fuzz/.build tells a stale
            # cache from a real error.
            say "building fuzz-$target failed; building again from a clean Fuzz/.build"
            rm -rf Fuzz/.build
            swift build "${build_flags[@]}" --product "fuzz-$target"
        fi
    done
fi
bin="$(swift build "${build_flags[@]}" --show-bin-path)"

# MARK: run
limit=()
[ -z "$seconds" ] || limit+=("-max_total_time=$seconds")
[ -z "$runs" ] || limit+=("-runs=$runs")
stat() { sed -n "s/^stat::$1: *//p" "$2" | tail -n 1; }

rows=()
failed=()
for target in "${targets[@]}"; do
    fuzzer="$bin/fuzz-$target"
    [ -x "$fuzzer" ] || die "$fuzzer is not built (run without --no-build)"
    corpus="$out/corpus/$target"
    crashes="$out/crashes/$target"
    log="$out/logs/$target.log"
    mkdir -p "$corpus" "$crashes"
    say "fuzz-$target (${seconds:+$seconds s}${seconds:+${runs:+, }}${runs:+$runs runs})"
    status=0
    # Leaks are checked: memory a decoder keeps across inputs would grow without bound.
    case "$target" in
        device-engine|media-client|widgets|status-report|http-server) max_len=1024 ;;
        *) max_len=70000 ;;
    esac
    # fuzz-http-server runs real sockets and event-loop timers: a timer still pending when an
    # input ends holds a weak reference whose side table is found only through a tagged
    # reference count, which LeakSanitizer cannot read, so it reports it as a leak. Its leaks
    # are not checked; its descriptors are (a property of the target) and its memory by
    # -rss_limit_mb.
    leaks=1
    [ "$target" != http-server ] || leaks=0
    ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=$leaks}" "$fuzzer" \
        -max_len="$max_len" -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 -artifact_prefix="$crashes/" "${limit[@]}" \
        "$corpus" "Fuzz/Corpus/$target" >"$log" 2>&1 || status="exit $?"
    executions="$(stat number_of_executed_units "$log")"
    per_second="$(stat average_exec_per_sec "$log")"
    rss="$(stat peak_rss_mb "$log")"
    units="$(find "$corpus" -type f | wc -l | tr -d ' ')"
    result=ok
    if [ "$status" = 0 ] && ! grep -q 'inline 8-bit counters' "$log"; then
        # A fuzzer without coverage feedback only replays mutations of its seeds.
        status="no coverage instrumentation"
        printf '\nfuzz-%s ran without coverage instrumentation; rebuild it (rm -rf Fuzz/.build)\n' "$target" >&2
    fi
    if [ "$status" != 0 ]; then
        result="FAILED ($status)"
        failed+=("$target")
        artifact="$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)"
        printf '\n--- fuzz-%s failed; the end of %s:\n' "$target" "$log" >&2
        grep -v '^#[0-9]' "$log" | tail -n 40 >&2
        if [ -n "$artifact" ]; then
            printf '\ncrashing input: %s\nreproduce: SWIFT_BACKTRACE=enable=no %s %s\n\n' "$artifact" "$fuzzer" "$artifact" >&2
        else
            printf '\nno crashing input was written (see %s)\n\n' "$log" >&2
        fi
    fi
    rows+=("$(printf '%-22s %12s %10s %9s %8s  %s' "fuzz-$target" "${executions:-?}" "${per_second:-?}" \
        "${rss:-?}" "$units" "$result")")
done

# MARK: summary
printf '\n%-22s %12s %10s %9s %8s  %s\n' target executions "exec/s" "peak MB" corpus result
for row in "${rows[@]}"; do printf '%s\n' "$row"; done
if [ ${#failed[@]} -gt 0 ]; then
    printf '\n%d target(s) failed: %s\n' "${#failed[@]}" "${failed[*]}" >&2
    exit 1
fi
printf '\nall %d fuzz targets ran without a crash\n' "${#targets[@]}"
