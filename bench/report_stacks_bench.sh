#!/usr/bin/env bash
# topdown report against perf report, with DWARF call stacks: the same
# workload is recorded once by `topdown record --call-graph dwarf` and once by
# perf record with the same clock, frequency and stack size, then
# `topdown report` of topdown's recording and `perf report --stdio` of perf's
# are each run three times; the fastest time and the largest peak memory
# (maximum resident set size) of each are printed side by side, with PASS when
# topdown is at or below perf on both. Two workloads: about a second of the
# demo's two-function kernel, and 30 seconds of a multi-threaded program
# (xz compressing with two threads).
#   bench/report_stacks_bench.sh [BUILD_DIR [SECONDS]]   default build, 30
# Software events (tests/data/software.model): it runs on any machine.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
long_seconds=${2:-30}
topdown=$build/topdown
demo=$build/topdown-demo
model=$root/tests/data/software.model
for tool in "$topdown" "$demo"; do
  [[ -x $tool ]] || { echo "no $tool: build it first (cmake --build $build)" >&2; exit 2; }
done
for tool in perf xz /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed (scripts/setup-debian.sh installs it)" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

# "SECONDS KB" of the fastest of three runs and the largest peak of them.
measure() {
  local best="" peak=0
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" ||
      { cat "$work/err" >&2; exit 1; }
    read -r seconds kb <"$work/time"
    best=$(awk -v a="$seconds" -v b="${best:-1e9}" 'BEGIN { print (a < b ? a : b) }')
    peak=$((kb > peak ? kb : peak))
  done
  echo "$best $peak"
}

# name, then the workload's command
compare_reports() {
  local name=$1
  shift
  local ours=$work/recording.data theirs=$work/recording.perf.data status=0
  "$topdown" record --model "$model" --call-graph dwarf -o "$ours" -- "$@" >/dev/null 2>"$work/record.err" ||
    status=$?
  # timeout(1) ends the long workload with 124.
  ((status == 0 || status == 124)) || { cat "$work/record.err" >&2; exit 1; }
  # The samples of topdown's plan (`record --print-perf`: its clock at its
  # frequency with its stack size), of the clock alone: perf 6.1 does not
  # follow new threads and processes when a sample reads its group, and
  # perf report ranks by that clock.
  status=0
  perf record -q -F 1000 --call-graph dwarf,8192 -e task-clock -o "$theirs" -- "$@" >/dev/null \
    2>"$work/record.err" || status=$?
  ((status == 0 || status == 124)) || { cat "$work/record.err" >&2; exit 1; }
  read -r our_time our_kb < <(measure "$topdown" report -o "$work/report.txt" "$ours")
  read -r perf_time perf_kb < <(measure perf report --stdio -i "$theirs")
  local verdict=PASS
  if awk -v a="$our_time" -v b="$perf_time" 'BEGIN { exit !(a > b) }' || ((our_kb > perf_kb)); then
    verdict=FAIL
    failed=1
  fi
  printf '%s: topdown record %s MB, perf record %s MB\n' "$name" "$(du -m "$ours" | cut -f1)" \
    "$(du -m "$theirs" | cut -f1)"
  printf '  %-34s %8.2f s %9d KB\n' "topdown report (its recording)" "$our_time" "$our_kb"
  printf '  %-34s %8.2f s %9d KB\n' "perf report --stdio (perf's)" "$perf_time" "$perf_kb"
  printf '  topdown/perf: time %.2f, memory %.2f  %s\n' \
    "$(awk -v a="$our_time" -v b="$perf_time" 'BEGIN { print (b > 0 ? a / b : 0) }')" \
    "$(awk -v a="$our_kb" -v b="$perf_kb" 'BEGIN { print a / b }')" "$verdict"
}

compare_reports "demo, about 1 s" "$demo" faults-and-compute --iterations 2
head -c 64M /dev/urandom >"$work/input"
compare_reports "xz -T2, ${long_seconds} s" timeout "$long_seconds" sh -c \
  "while :; do xz -T2 -6 -c '$work/input' >/dev/null; done"
exit $failed
