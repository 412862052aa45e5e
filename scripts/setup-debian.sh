#!/usr/bin/env bash
# Installs what topdown needs to build and test on Debian 12 (bookworm).
set -euo pipefail
packages=(
  g++ cmake make pkg-config python3
  libpfm4-dev nlohmann-json3-dev libcli11-dev libfmt-dev
  libgtest-dev libbenchmark-dev libpapi-dev
  libbpf-dev bpftool
  linux-perf libdw-dev libelf-dev
  libprotobuf-dev protobuf-compiler zlib1g-dev golang-go
  libmicrohttpd-dev libgnutls28-dev libyaml-cpp-dev libcrypt-dev libcurl4-gnutls-dev openssl curl
  prometheus chromium
  clang libclang-rt-14-dev clang-tidy clang-format
)
"$(dirname "$0")/apt-install-missing.sh" "${packages[@]}"
