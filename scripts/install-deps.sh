#!/usr/bin/env bash
# Installs the Debian packages aclsim needs to build and test, if any is missing.
# Safe to run repeatedly; needs root (or sudo) only when something is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev libjemalloc2
  libspdlog-dev libfmt-dev libcli11-dev nlohmann-json3-dev libeigen3-dev libonnx-dev libonnx-testdata libprotobuf-dev python3-onnx zlib1g-dev
  clang-format clang-tidy python3
  busybox zsh dash
  clang-14 libclang-rt-14-dev
)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "aclsim: installing missing packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
