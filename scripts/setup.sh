#!/usr/bin/env bash
# Installs what opsched needs on Debian 12 (apt), only what is missing.
# Usage: scripts/setup.sh [extra-package ...]
set -euo pipefail

packages=(build-essential cmake ninja-build python3 valgrind chromium
          mlir-22-tools libmlir-22-dev llvm-22-dev llvm-22-tools clang-14 libclang-rt-14-dev "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
