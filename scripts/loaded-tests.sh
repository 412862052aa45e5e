#!/bin/sh
# Runs the tests that start processes or threads and check times or shares
# (of the suites below, also parameterized ones: Prefix/Suite.Test),
# ROUNDS times while stress-ng keeps every core busy, and prints how often
# each one failed. A test that fails here will one day fail CI, which shares
# two cores with other jobs.
#   scripts/loaded-tests.sh BUILD_DIR [ROUNDS] [TEST_REGEX]
# Use a build that nothing rebuilds meanwhile (a separate clone).
set -eu
build=${1:?usage: scripts/loaded-tests.sh BUILD_DIR [ROUNDS] [TEST_REGEX]}
rounds=${2:-20}
suites='CgroupStat|LiveCli|LiveCliPerUnit|CompareCli|RepeatCli|RecordCli|ProfileLive|ServeCli|Collect[A-Za-z]*'
suites="$suites|RunWorkload[A-Za-z]*|Demo[A-Za-z]*|LiveCounting|RegionThreads|RingBuffer|Sampling[A-Za-z]*"
suites="$suites|PerfEventLive|PerfGroupLive|RegionSoftwareModel|MultiplexLive|PercoreEvents|CommandWords"
suites="$suites|CallStacksLive|PprofCli|ServeTls|HtmlStat"
regex=${3:-"^([A-Za-z]+/)?($suites)\\."}
command -v stress-ng >/dev/null || { echo "loaded-tests: needs stress-ng (apt-get install stress-ng)" >&2; exit 2; }

logs=$(mktemp -d)
stress-ng --cpu "$(nproc)" --quiet &
stress=$!
trap 'kill $stress 2>/dev/null; wait $stress 2>/dev/null || true' EXIT

round=1
while [ "$round" -le "$rounds" ]; do
  ctest --test-dir "$build" -R "$regex" -j2 --output-on-failure >"$logs/round$round.log" 2>&1 || true
  failed=$(grep -c -E '^[[:space:]]*[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess aborted|Exception)\)' \
    "$logs/round$round.log" || true)
  echo "round $round: $(grep -E 'tests passed' "$logs/round$round.log" || echo 'no summary'), $failed failed"
  round=$((round + 1))
done

ran=$(ctest --test-dir "$build" -N -R "$regex" | sed -n 's/^Total Tests: //p')
echo "$ran tests, $rounds rounds each, both cores busy; failures by test (logs in $logs):"
failures=$(cat "$logs"/round*.log |
  grep -E '^[[:space:]]*[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess aborted|Exception)\)' |
  sed -E 's/^[[:space:]]*[0-9]+ - //' | sort | uniq -c | sort -rn || true)
echo "${failures:-  none}"
