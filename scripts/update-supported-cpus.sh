#!/bin/sh
# Rewrites README.md's Supported CPUs table from the models, as
# `topdown list --models --markdown` prints it (ctest
# ListModels.ReadmeSupportedCpusIsTheMarkdownList fails while they differ).
#   scripts/update-supported-cpus.sh [BUILD_DIR]     (default: build)
set -eu
cd "$(dirname "$0")/.."
topdown=${1:-build}/topdown
[ -x "$topdown" ] || { echo "update-supported-cpus: no $topdown; build first or name the build folder" >&2; exit 2; }
table=$(mktemp)
readme=$(mktemp)
trap 'rm -f "$table" "$readme"' EXIT
TOPDOWN_MODELS="$PWD/models" "$topdown" list --models --markdown >"$table"
awk -v table="$table" '
  /^<!-- supported-cpus: begin -->$/ { print; while ((getline line < table) > 0) print line; skip = 1; found++; next }
  /^<!-- supported-cpus: end -->$/ { skip = 0 }
  !skip { print }
  END { if (found != 1) exit 1 }
' README.md >"$readme" || { echo "update-supported-cpus: README.md needs one '<!-- supported-cpus: begin -->' line" >&2; exit 1; }
cat "$readme" >README.md
