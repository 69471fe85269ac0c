#!/usr/bin/env bash
# Configures and builds one flavour of aclsim into build/<flavour>.
#   scripts/build.sh [--configure-only] release|asan|tsan [extra cmake args...]
# --configure-only stops after CMake (compile_commands.json for clang-tidy, unity sources).
set -euo pipefail
cd "$(dirname "$0")/.."

configure_only=0
if [ "${1:-}" = --configure-only ]; then
  configure_only=1
  shift
fi
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
# Debug information is line tables only (-g1: what backtraces, sanitizer reports and perf
# print; a third less compile time than -g, and compiling dominates a cold CI run); configure
# with CMAKE_BUILD_TYPE=Debug for full debug information. TSan at -O1 (half the compile time of
# -O2). The sanitizer flavours skip the benchmarks (no tests; speed is measured in release).
opt_flags=()
if [ "$flavour" = release ]; then
  opt_flags=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG")
elif [ "$flavour" = tsan ]; then
  opt_flags=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG")
fi
# The sanitizer flavours compile as unity builds (8 sources per translation unit: 40 % less
# compile time for the libraries). Release stays one translation unit per source, so it
# catches a source that compiles only after another's includes.
if [ "$flavour" != release ]; then
  opt_flags+=(-DACLSIM_BUILD_BENCH=OFF -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8)
fi
# ASan+UBSan with clang: it compiles the instrumented tree about twice as fast as gcc, and its
# UBSan checks more (pointer overflow, function types).
# The libFuzzer targets build in this tree too (-DACLSIM_FUZZ=ON: coverage instrumentation on
# the parsers only, see cmake/AclsimOptions.cmake), which spares run-tests.sh a third
# instrumented tree.
if [ "$flavour" = asan ] && command -v clang++-14 >/dev/null 2>&1; then
  export CC=clang-14 CXX=clang++-14
  opt_flags+=(-DACLSIM_FUZZ=ON)
fi
cmake -S . -B "build/$flavour" -G Ninja \
  -DCMAKE_BUILD_TYPE="$type" -DACLSIM_SANITIZE="$sanitize" "${opt_flags[@]}" "$@" >/dev/null
[ "$configure_only" = 1 ] && exit 0
cmake --build "build/$flavour" -j "$jobs"
