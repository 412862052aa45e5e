#!/usr/bin/env bash
# Runs the libFuzzer targets of fuzz/ (docs/fuzzing.md).
#   scripts/fuzz.sh TARGET SECONDS     one target: expression, model, model_header, import, import_report, symbols, data_file, perf_script or compare_report
#   scripts/fuzz.sh all SECONDS        each target in turn for SECONDS
# Builds build-fuzz (clang, -DTOPDOWN_FUZZ=ON) when needed. New inputs go to
# build-fuzz/corpus/TARGET (the seeds in fuzz/corpus/ are only read: import
# and import_report share fuzz/corpus/import, model and model_header
# fuzz/corpus/model);
# crashes, leaks, timeouts and out-of-memory inputs go to fuzz/findings/TARGET.
# Exits non-zero when any target has a finding.
set -euo pipefail

readonly targets=(expression model model_header import import_report symbols data_file perf_script compare_report)
usage() {
  echo "usage: $0 {${targets[*]// /|}|all} SECONDS" >&2
  exit 2
}
[[ $# -eq 2 && $2 =~ ^[0-9]+$ && $2 -gt 0 ]] || usage
if [[ $1 == all ]]; then
  selected=("${targets[@]}")
elif [[ " ${targets[*]} " == *" $1 "* ]]; then
  selected=("$1")
else
  usage
fi
readonly seconds=$2

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
findings=$root/fuzz/findings

export CCACHE_DIR=${CCACHE_DIR:-/work/.ccache} CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=1
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
# Configured every time: a target added since the last configure is
# unknown to the generated Makefiles until then. The options are given on
# the first configure only, so that one configured by hand (with the tests,
# say) keeps its own.
options=()
if [[ ! -f $build/CMakeCache.txt ]]; then
  options=(-DTOPDOWN_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DTOPDOWN_BUILD_TESTS=OFF
    -DTOPDOWN_BUILD_BENCH=OFF "${launcher[@]}")
fi
cmake -S "$root" -B "$build" "${options[@]}" >/dev/null
if ! cmake --build "$build" -j2 --target "${selected[@]/#/fuzz_}" >"$build/fuzz-build.log" 2>&1; then
  tail -n 40 "$build/fuzz-build.log" >&2
  exit 1
fi

export TOPDOWN_MODELS=$root/models
# Any sanitizer report ends the run with the input kept.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

mkdir -p "$findings"
stamp=$(mktemp)
trap 'rm -f "$stamp"' EXIT
status=0
summary=()
for target in "${selected[@]}"; do
  corpus=$build/corpus/$target
  seeds=${target%_report}
  seeds=${seeds%_header}
  mkdir -p "$corpus" "$findings/$target"
  log=$build/fuzz-$target.log
  start=$SECONDS
  set +e
  # timeout(1) is a backstop for a hang libFuzzer's own -timeout misses.
  timeout --signal=KILL $((seconds + 300)) "$build/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/$target/" \
    "$corpus" "$root/fuzz/corpus/$seeds" >"$log" 2>&1
  rc=$?
  set -e
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [[ $rc -eq 0 ]]; then
    result=ok
  else
    result="FINDING (exit $rc): $(grep -m1 -E 'ERROR: |runtime error|deadly signal|Test unit written' "$log" || true)"
    tail -n 60 "$log" >&2
    status=1
  fi
  summary+=("$(printf '%-14s %5s s %12s executions  %s' "$target" $((SECONDS - start)) "${executions:-?}" "$result")")
done
printf '%s\n' "${summary[@]}"
artifacts=$(find "$findings" -type f -newer "$stamp" | sort)
if [[ -n $artifacts ]]; then
  echo "new findings (reproduce: build-fuzz/fuzz/fuzz_TARGET FILE):"
  echo "$artifacts"
  # On a CI machine the files are gone with it: print them, to be rebuilt
  # with `base64 -d`.
  while read -r artifact; do
    echo "base64 of $(basename "$artifact"):"
    head -c 65536 "$artifact" | base64 -w 76
  done <<<"$artifacts"
fi
exit $status
