#!/usr/bin/env bash
# CI: the whole project and its tests under AddressSanitizer and UBSan
# (build-asan); then the region library's thread tests under ThreadSanitizer
# (build-tsan). Any sanitizer report fails the step (docs/fuzzing.md).
set -euo pipefail
cd "$(dirname "$0")/.."

export CCACHE_DIR=${CCACHE_DIR:-/work/.ccache} CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
# -O1 -g1, as the sanitizers' authors advise: half the compile time of the
# default -O2 -g, stack traces with lines still; assert() stays on.
configure() {  # build dir, sanitizers
  cmake -S . -B "$1" -DTOPDOWN_SANITIZE="$2" -DTOPDOWN_WERROR=ON -DTOPDOWN_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=None \
    -DCMAKE_C_FLAGS="-O1 -g1" -DCMAKE_CXX_FLAGS="-O1 -g1" "${launcher[@]}" >/dev/null
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

echo "== AddressSanitizer + UndefinedBehaviorSanitizer: build-asan"
configure build-asan address,undefined
cmake --build build-asan -j2
# Not the independent checks: they start topdown hundreds of times to compare
# numbers with Python's (minutes each when sanitized); the README's suite
# runs them, and the import fuzz targets cover that code under sanitizers.
# Nor EveryIntelModelPlan (every model at every level: a minute natively,
# over fifteen sanitized); the plans of a few models run in other suites.
ctest --test-dir build-asan -j2 --output-on-failure --exclude-regex '^independent_|^EveryIntelModelPlan\.'

echo "== ThreadSanitizer: build-tsan"
configure build-tsan thread
cmake --build build-tsan -j2 --target region_tests
"$(find build-tsan -type f -name region_tests -perm -u+x | head -n 1)" --gtest_filter='RegionThreads.*'
