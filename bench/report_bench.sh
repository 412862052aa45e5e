#!/usr/bin/env bash
# topdown report against perf report on the same samples: records a
# workload with perf record on software events (leader sampling, what
# `topdown report` reads), converts it with perf script, then times
# `topdown report` of the text and `perf report --stdio` of perf.data and
# prints both and their ratio (below 1: topdown is faster).
#   bench/report_bench.sh [BUILD_DIR [SAMPLES]]   default build, 1000000
# The conversion (perf script, without srcline: perf report does not read
# source lines either) is timed and printed too, apart: it is perf's step.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
samples=${2:-1000000}
topdown=$build/topdown
[[ -x $topdown ]] || { echo "no $topdown: build it first (cmake --build $build --target topdown)" >&2; exit 2; }
command -v perf >/dev/null || { echo "perf is not installed (linux-perf)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# cpu-clock every 10 us (the kernel's shortest hrtimer period) of a
# single-process workload: perf does not follow children with group reads.
period=10000
# Sampled every 10 us, dd took about 100 samples a 64 KiB block on the
# development machine (its copy runs in the kernel, slowed by the sampling);
# the count of samples really taken is printed.
blocks=$(((samples + 99) / 100))
seconds() { date +%s.%N; }

start=$(seconds)
perf record -q -e '{cpu-clock,page-faults}:S' -c $period -o "$work/perf.data" -- \
  dd if=/dev/zero of=/dev/null bs=64k count=$blocks status=none 2>"$work/record.err" ||
  { cat "$work/record.err" >&2; exit 1; }
recorded=$(seconds)
perf script -i "$work/perf.data" -F comm,tid,pid,time,period,event,ip,sym,dso >"$work/script.txt" 2>/dev/null
converted=$(seconds)
got=$(grep -c ' cpu-clock: ' "$work/script.txt" || true)

best() {  # the fastest of three runs of "$@", in seconds
  local best_time=""
  for _ in 1 2 3; do
    local t0 t1
    t0=$(seconds)
    "$@" >/dev/null 2>&1
    t1=$(seconds)
    best_time=$(echo "$t0 $t1 ${best_time:-1e9}" | awk '{d = $2 - $1; print (d < $3 ? d : $3)}')
  done
  echo "$best_time"
}
report_time=$(best "$topdown" report --model "$root/tests/data/software_sampling.model" -o "$work/report.txt" \
  "$work/script.txt")
perf_time=$(best perf report --stdio -i "$work/perf.data")

awk -v n="$got" -v rec="$(echo "$start $recorded" | awk '{print $2 - $1}')" \
  -v conv="$(echo "$recorded $converted" | awk '{print $2 - $1}')" -v ours="$report_time" -v perf="$perf_time" \
  -v mb="$(du -m "$work/script.txt" | cut -f1)" 'BEGIN {
  printf "samples (group samples of {cpu-clock,page-faults}:S): %d\n", n
  printf "perf record: %.2f s; perf script -> %d MB of text: %.2f s\n", rec, mb, conv
  printf "topdown report (perf script text): %.3f s\n", ours
  printf "perf report --stdio (perf.data):    %.3f s\n", perf
  printf "ratio topdown/perf: %.2f\n", ours / perf
}'
