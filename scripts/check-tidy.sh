#!/usr/bin/env bash
# Runs clang-tidy (.clang-tidy) over our own sources (src/, sim/, tools/; generated files
# excluded) using build/<dir>/compile_commands.json.
#   scripts/check-tidy.sh [build-dir]   (default build/release)
# In a unity build (CMAKE_UNITY_BUILD, as scripts/build.sh configures the sanitizer trees)
# clang-tidy checks each unity translation unit: the sources it includes are checked as they
# compile there, and the system headers are parsed and matched once per batch instead of once
# per file (clang-tidy spends most of its time matching through them). Every source must be
# compiled in the tree, alone or in a unity batch; one that is not fails the check.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
db="$build/compile_commands.json"
[ -f "$db" ] || { echo "clang-tidy: $db is missing (configure $build first)"; exit 1; }
root="$PWD"
files=$(git ls-files 'src/*.cc' 'sim/*.cc' 'tools/*.cc' | grep -v '^src/api/not_supported.cc$')
entries=$(grep -o '"file": "[^"]*"' "$db" | sed -E 's/^"file": "(.*)"$/\1/' | sort -u)

units=()
covered=""
for entry in $entries; do
  case "$entry" in
    */Unity/unity_*)
      included=$(sed -nE 's/^#include "(.*)"$/\1/p' "$entry")
      mine=$(echo "$included" | sed -n "s|^$root/||p" | grep -xF "$files" || true)
      if [ -n "$mine" ]; then
        units+=("$entry")
        covered+="$mine"$'\n'
      fi
      ;;
    "$root"/*)
      rel="${entry#"$root"/}"
      if echo "$files" | grep -qxF "$rel"; then
        units+=("$entry")
        covered+="$rel"$'\n'
      fi
      ;;
  esac
done
missing=$(comm -23 <(echo "$files" | sort -u) <(echo -n "$covered" | sort -u))
if [ -n "$missing" ]; then
  echo "clang-tidy: not compiled in $build (no compile command, alone or in a unity batch):"
  echo "$missing"
  exit 1
fi

# The sources a unity unit includes are headers to clang-tidy: the filter takes them in, and
# the unit's own #include of a .cc is the build's doing (bugprone-suspicious-include).
filter='(src|sim|tools)/.*\.(h|cc)$'
jobs="$(nproc 2>/dev/null || echo 2)"
tidy=(clang-tidy -p "$build" --config-file="$root/.clang-tidy" --quiet --header-filter="$filter")
: > "$build/tidy.log"
ok=1
unity=$(printf '%s\n' "${units[@]}" | grep '/Unity/unity_' || true)
single=$(printf '%s\n' "${units[@]}" | grep -v '/Unity/unity_' || true)
if [ -n "$unity" ] && ! echo "$unity" |
    xargs -P "$jobs" -n 1 "${tidy[@]}" --checks=-bugprone-suspicious-include >> "$build/tidy.log" 2>&1; then
  ok=0
fi
if [ -n "$single" ] && ! echo "$single" | xargs -P "$jobs" -n 4 "${tidy[@]}" >> "$build/tidy.log" 2>&1; then
  ok=0
fi
if [ "$ok" = 0 ]; then
  grep -E "(warning|error):" "$build/tidy.log" | head -50
  echo "clang-tidy: problems found (full log: $build/tidy.log)"
  exit 1
fi
echo "clang-tidy: ok (${#units[@]} translation units)"
