#!/bin/sh
# Screenshots (1280x800) of the --html pages the Chromium test renders: a
# Haswell -l6 import, a Zen 5 -l2 import per interval, a Haswell per-core
# import, a Skylake per-function report, a Skylake report with call stacks
# (functions table and flame graph), a compare of repeated runs and a compare
# of two recordings (its differential flame graph). Usage: scripts/html-screenshots.sh [BUILD_DIR] [OUT_DIR]
# (defaults: build, BUILD_DIR/html-screenshots). Needs cli_tests built and chromium.
set -eu
build=${1:-build}
out=${2:-$build/html-screenshots}
command -v chromium >/dev/null || { echo "html-screenshots: chromium is not installed (scripts/setup-debian.sh installs it)" >&2; exit 1; }
[ -x "$build/tests/cli/cli_tests" ] || { echo "html-screenshots: build $build/tests/cli/cli_tests first (cmake --build $build --target cli_tests)" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
TOPDOWN_HTML_KEEP=$out "$build/tests/cli/cli_tests" --gtest_filter='HtmlChromium.*Import*:HtmlChromium.*Report*:HtmlChromium.Compare*' >/dev/null
# Chromium refuses its sandbox as root.
sandbox=""
[ "$(id -u)" -eq 0 ] && sandbox="--no-sandbox"
for page in "$out"/*.html; do
  chromium --headless $sandbox --disable-gpu --hide-scrollbars --window-size=1280,800 \
    --screenshot="${page%.html}.png" "file://$page" 2>/dev/null
  echo "${page%.html}.png"
done
