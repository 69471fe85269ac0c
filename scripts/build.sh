#!/usr/bin/env bash
# Configures and builds one flavour of aclsim into build/<flavour>.
#   scripts/build.sh release|asan|tsan [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."

flavour="${1:-release}"
shift || true
case "$flavour" in
  release) sanitize="" ; type=RelWithDebInfo ;;
  asan)    sanitize="address" ; type=Debug ;;
  tsan)    sanitize="thread" ; type=RelWithDebInfo ;;  # at -O1 -g1: see below
  *) echo "usage: $0 release|asan|tsan" >&2; exit 2 ;;
esac

jobs="$(nproc 2>/dev/null || echo 2)"
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/aclsim-ccache}"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
# Paths below the checkout hash relative to it, so clones in other places share the cache.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
# TSan at -O1 with line tables only (what its reports print): half the compile time of -O2 -g,
# which dominated a cold CI run.
# The sanitizer flavours skip the benchmarks (no tests; speed is measured in release).
opt_flags=()
if [ "$flavour" = tsan ]; then
  opt_flags=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG")
fi
if [ "$flavour" != release ]; then
  opt_flags+=(-DACLSIM_BUILD_BENCH=OFF)
fi
cmake -S . -B "build/$flavour" -G Ninja \
  -DCMAKE_BUILD_TYPE="$type" -DACLSIM_SANITIZE="$sanitize" "${opt_flags[@]}" "$@" >/dev/null
cmake --build "build/$flavour" -j "$jobs"
