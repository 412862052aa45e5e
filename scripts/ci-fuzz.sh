#!/usr/bin/env bash
# CI: every fuzz target for 30 s; fails on any finding (docs/fuzzing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/fuzz.sh all 30
