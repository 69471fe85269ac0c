#!/usr/bin/env bash
# Fails if any C/C++ source of ours differs from .clang-format (generated files excluded).
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files '*.h' '*.cc' '*.c' | grep -v -E '^(include/acl/|include/aclnnop/|tests/abi/|src/api/manifest/)' || true)
[ -z "$files" ] && exit 0
bad=$(clang-format --dry-run --Werror $files 2>&1 | grep -E '^[^ ]+:[0-9]+:[0-9]+: error' | cut -d: -f1 | sort -u || true)
if [ -n "$bad" ]; then
  echo "these files need clang-format:"; echo "$bad"
  exit 1
fi
echo "format: ok"
