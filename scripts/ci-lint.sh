#!/usr/bin/env bash
# Lint, for CI: clang-tidy (.clang-tidy) over the sources in src/ and the
# headers of src/ and include/ they include, through the compile commands of
# a build (BUILD_DIR, default build/, configured when it has none), and
# clang-format (.clang-format) over every C/C++ file of src/ include/ tests/
# bench/ demos/ examples/ fuzz/. Prints only the findings; exits non-zero on
# any. Needs clang-tidy and clang-format 14 (Debian 12's clang-tidy and
# clang-format packages, installed by scripts/setup-debian.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BUILD_DIR:-build}
jobs=${LINT_JOBS:-2}
status=0

if [ ! -f "$build/compile_commands.json" ]; then
  cmake -S . -B "$build" >/dev/null
fi

tidy_log=$(mktemp)
trap 'rm -f "$tidy_log"' EXIT
if ! run-clang-tidy -p "$build" -j "$jobs" -quiet "^$root/src/.*\.cpp$" >"$tidy_log" 2>&1; then
  status=1
fi
# run-clang-tidy echoes each command and the code around each finding; keep
# one line per finding (a header's finding comes once per source including it).
# clang-tidy 14 colours its output even into a file: the colour codes go.
findings=$(sed -E 's/\x1b\[[0-9;]*m//g' "$tidy_log" | grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' |
  sed "s|^$root/||" | sort -u || true)
if [ "$status" -ne 0 ]; then
  [ -n "$findings" ] && echo "$findings" || tail -20 "$tidy_log"
  echo "ci-lint: clang-tidy found $(echo "$findings" | awk 'NF' | wc -l) problem(s) (above)"
else
  echo "ci-lint: clang-tidy: no findings"
fi

mapfile -t sources < <(find src include tests bench demos examples fuzz -type f \
  \( -name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.h' -o -name '*.hpp' \) | sort)
unformatted=$(clang-format --style=file --dry-run -Werror "${sources[@]}" 2>&1 |
  grep -oE '^[^ :]+:[0-9]+:[0-9]+: (warning|error)' | cut -d: -f1 | sort -u || true)
if [ -n "$unformatted" ]; then
  status=1
  echo "$unformatted"
  echo "ci-lint: clang-format would change $(echo "$unformatted" | wc -l) of ${#sources[@]} files (above);" \
    "run clang-format -i on them"
else
  echo "ci-lint: clang-format: all ${#sources[@]} files formatted"
fi
exit "$status"
