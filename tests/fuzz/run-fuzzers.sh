#!/usr/bin/env bash
# run-fuzzers.sh [SECONDS_PER_TARGET] [TARGET...] — a short fuzzing run, as CI does it.
#
# Builds the fuzz preset (clang, libFuzzer, ASan + UBSan) and runs each harness of
# tests/fuzz (all of them, or the TARGETs named) for SECONDS_PER_TARGET seconds (default 20), one
# after another, starting from its seed corpus and regression inputs. Fails if any harness
# crashes, hangs (10 s per input), leaks or goes over 2 GB; the input that did it is kept in
# build/fuzz/fuzz-artifacts/TARGET/ (minimise it with -minimize_crash=1 and add it to
# tests/fuzz/regressions/TARGET/ with the fix). Inputs the run found interesting are kept in
# build/fuzz/fuzz-corpus/TARGET/, outside the source tree.
#
# Without clang++ and libFuzzer it prints why it skipped and succeeds.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
seconds="${1:-20}"
shift $(($# > 0 ? 1 : 0))
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -eq 0 ]; then
    echo "usage: $0 [SECONDS_PER_TARGET] [TARGET...]" >&2
    exit 2
fi

if ! command -v clang++ >/dev/null 2>&1; then
    echo "run-fuzzers: skipped: clang++ is not installed (the fuzz preset builds with clang's libFuzzer)"
    exit 0
fi
probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
printf '%s\n' '#include <cstddef>' '#include <cstdint>' \
    'extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *, std::size_t) { return 0; }' >"$probe/probe.cpp"
if ! clang++ -fsanitize=fuzzer,address,undefined "$probe/probe.cpp" -o "$probe/probe" 2>"$probe/log"; then
    echo "run-fuzzers: skipped: clang++ cannot link -fsanitize=fuzzer,address,undefined (libFuzzer missing?):"
    sed 's/^/  /' "$probe/log" | head -5
    exit 0
fi

cd "$root"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz

build="$root/build/fuzz"
targets_file="$build/tests/fuzz/fuzz-targets.txt"
declare -A max_len=()
all=()
while read -r name len; do
    [[ -z "$name" || "$name" == \#* ]] && continue
    max_len[$name]=$len
    all+=("$name")
done <"$targets_file"
if [ $# -gt 0 ]; then
    for t in "$@"; do
        [ -n "${max_len[$t]:-}" ] || { echo "run-fuzzers: unknown target $t (known: ${all[*]})" >&2; exit 2; }
    done
    selected=("$@")
else
    selected=("${all[@]}")
fi

export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
failed=()
for t in "${selected[@]}"; do
    corpus="$build/fuzz-corpus/$t"
    artifacts="$build/fuzz-artifacts/$t"
    mkdir -p "$corpus" "$artifacts"
    inputs=("$corpus")
    for d in "$root/tests/fuzz/corpus/$t" "$root/tests/fuzz/regressions/$t"; do
        [ -d "$d" ] && inputs+=("$d")
    done
    echo "=== fuzz_$t: ${seconds}s, max_len ${max_len[$t]}"
    log="$build/fuzz-artifacts/$t.log"
    if "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -max_len="${max_len[$t]}" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" "${inputs[@]}" >"$log" 2>&1; then
        grep -E '^#[0-9]+.*DONE|stat::number_of_executed_units|cov:' "$log" | tail -2 || true
    else
        tail -40 "$log"
        echo "=== fuzz_$t FAILED (log: $log, input: $(ls -t "$artifacts" | head -1))"
        failed+=("$t")
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "run-fuzzers: ${#failed[@]} target(s) failed: ${failed[*]}"
    exit 1
fi
echo "run-fuzzers: ${#selected[@]} target(s) ran ${seconds}s each without a crash"
