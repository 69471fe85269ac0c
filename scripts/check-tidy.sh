#!/usr/bin/env bash
# Runs clang-tidy (.clang-tidy) over our own sources using build/<dir>/compile_commands.json.
#   scripts/check-tidy.sh [build-dir]   (default build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
files=$(git ls-files 'src/*.cc' 'sim/*.cc' 'tools/*.cc' | grep -v '^src/api/not_supported.cc$')
jobs="$(nproc 2>/dev/null || echo 2)"
if ! echo "$files" | xargs -P "$jobs" -n 4 clang-tidy -p "$build" --quiet > "$build/tidy.log" 2>&1; then
  grep -E "(warning|error):" "$build/tidy.log" | head -50
  echo "clang-tidy: problems found (full log: $build/tidy.log)"
  exit 1
fi
echo "clang-tidy: ok"
