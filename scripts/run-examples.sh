#!/usr/bin/env bash
# Quick start 1: install what is missing, build everything, run the bundled examples on the
# simulated NPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh release
ctest --test-dir build/release -L example --output-on-failure
for example in build/release/examples/*/; do
  name="$(basename "$example")"
  if [ -x "$example/$name" ]; then
    echo "=== $name"
    "$example/$name"
  fi
done
