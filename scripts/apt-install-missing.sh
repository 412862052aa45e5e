#!/usr/bin/env bash
# Installs with apt-get the Debian packages named as arguments that are not
# installed yet; a name may carry an architecture (libfmt-dev:arm64).
# A package counts as installed only for the architecture asked for (the
# machine's own when none is named): a package that is not Multi-Arch: same,
# such as libyaml-cpp-dev, is installed for one architecture at a time, and
# dpkg-query alone would also report the other one.
set -euo pipefail
native=$(dpkg --print-architecture)
missing=()
for package in "$@"; do
  name=${package%%:*} arch=$native
  [ "$name" = "$package" ] || arch=${package#*:}
  dpkg-query -W -f='${Architecture} ${Status}\n' "$name" 2>/dev/null |
    grep -Eq "^($arch|all) install ok installed$" || missing+=("$package")
done
[ ${#missing[@]} -gt 0 ] || exit 0
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
for package in "${missing[@]}"; do
  case $package in
    *:"$native") ;;
    *:*) dpkg --print-foreign-architectures | grep -qx "${package#*:}" ||
      "${sudo_cmd[@]}" dpkg --add-architecture "${package#*:}" ;;
  esac
done
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
