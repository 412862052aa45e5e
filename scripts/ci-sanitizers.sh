#!/usr/bin/env bash
# CI: the whole project and its tests under AddressSanitizer and UBSan, built
# with clang in build-fuzz with libFuzzer's coverage too, so that the fuzz
# targets of scripts/ci-fuzz.sh link against the same objects instead of a
# second sanitized build of every library; then the region library's thread
# tests under ThreadSanitizer (build-tsan). Any sanitizer report fails the
# step (docs/fuzzing.md).
set -euo pipefail
cd "$(dirname "$0")/.."

export CCACHE_DIR=${CCACHE_DIR:-/work/.ccache} CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

echo "== AddressSanitizer + UndefinedBehaviorSanitizer (clang, with the fuzz targets): build-fuzz"
cmake -S . -B build-fuzz -DTOPDOWN_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DTOPDOWN_BUILD_TESTS=ON -DTOPDOWN_WERROR=ON -DTOPDOWN_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null
cmake --build build-fuzz -j2
# Not the independent checks: they start topdown hundreds of times to compare
# numbers with Python's (5 to 10 minutes each when sanitized); the README's
# suite runs them, and the import fuzz targets cover that code here.
ctest --test-dir build-fuzz -j2 --output-on-failure --exclude-regex '^independent_'

echo "== ThreadSanitizer: build-tsan"
cmake -S . -B build-tsan -DTOPDOWN_SANITIZE=thread -DTOPDOWN_WERROR=ON -DTOPDOWN_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null
cmake --build build-tsan -j2 --target region_tests
"$(find build-tsan -type f -name region_tests -perm -u+x | head -n 1)" --gtest_filter='RegionThreads.*'
