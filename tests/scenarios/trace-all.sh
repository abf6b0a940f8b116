#!/usr/bin/env bash
# Runs every scenario file of the repository with `daemonscope sim run --trace --trace-state` and
# keeps, per file, the trace, stdout, stderr and exit code under OUTDIR. Two runs (for example the
# binaries before and after a change) compare with `diff -r OUTDIR_A OUTDIR_B`: a change that must
# not alter behaviour leaves the two folders byte-identical.
#
#   tests/scenarios/trace-all.sh BUILD/app/daemonscope OUTDIR
set -euo pipefail
if (($# != 2)); then
  echo "usage: $0 DAEMONSCOPE_BINARY OUTDIR" >&2
  exit 2
fi
bin="$(realpath "$1")"
out="$(realpath -m "$2")"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
rm -rf "$out"
mkdir -p "$out"
cd "$root"
count=0
while IFS= read -r file; do
  key="${file//\//__}"
  set +e
  QT_QPA_PLATFORM=offscreen "$bin" sim run "$file" --trace "$out/$key.trace" --trace-state \
    >"$out/$key.stdout" 2>"$out/$key.stderr"
  echo "$?" >"$out/$key.exit"
  set -e
  # The summary line names the trace file; name it relative to OUTDIR so two folders compare.
  sed -i "s|$out/||g" "$out/$key.stdout" "$out/$key.stderr"
  count=$((count + 1))
done < <(find resources/scenarios tests/scenarios tests/fuzz/corpus/scenario \
  tests/fuzz/regressions/scenario -type f \( -name '*.yaml' -o -name '*.yml' \) | LC_ALL=C sort)
echo "trace-all: $count scenario files into $out"
