#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/*_fuzzer.cc) with clang (into build/fuzz, or into the
# tree ACLSIM_FUZZ_BUILD names) and runs each for a bounded number of inputs, starting from its
# committed corpus fuzz/corpus/<target>/.
# The CI run is deterministic: a fixed seed (ACLSIM_FUZZ_SEED, default 1) and a fixed number
# of runs per target (sized for about 25 s each in the ASan+UBSan tree, -O0, on a 2-core
# machine running two targets at once; ACLSIM_FUZZ_RUNS overrides them all), with the time
# limit only as a safety cap; so a clean run stays clean and a failure reproduces. Longer
# random campaigns: ACLSIM_FUZZ_SEED=0 (random) and a larger ACLSIM_FUZZ_RUNS or -1 with a
# time limit. Targets run side by side, one per core. Fails
# when a target finds a crash, a leak or a sanitizer report; the input that triggered it is
# left in <tree>/fuzz-run/artifacts/<target>/ (replay it with build/<flavour>/fuzz/<target>_replay,
# then add it to the corpus as a regression input).
#   scripts/run-fuzz.sh [seconds per target]   (default: $ACLSIM_FUZZ_SECONDS or 60)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-${ACLSIM_FUZZ_SECONDS:-60}}"
jobs="$(nproc 2>/dev/null || echo 2)"
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/aclsim-ccache}"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"

# ACLSIM_FUZZ_BUILD names an already configured tree with -DACLSIM_FUZZ=ON (run-tests.sh uses
# the ASan+UBSan tree, which scripts/build.sh configures so when clang builds it: one
# instrumented tree instead of two); otherwise build/fuzz is configured here.
build="${ACLSIM_FUZZ_BUILD:-build/fuzz}"
if [ -z "${ACLSIM_FUZZ_BUILD:-}" ]; then
  cc="$(command -v clang-14 || command -v clang)"
  cxx="$(command -v clang++-14 || command -v clang++)"
  echo "=== fuzz: configure build/fuzz ($cxx)"
  # -O1 -g1, as libFuzzer's documentation builds targets (and half the compile time of -O2 -g).
  CC="$cc" CXX="$cxx" cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DACLSIM_FUZZ=ON -DACLSIM_BUILD_TESTS=OFF -DACLSIM_BUILD_EXAMPLES=OFF \
    -DACLSIM_BUILD_BENCH=OFF >/dev/null
elif ! grep -q '^ACLSIM_FUZZ:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  echo "=== fuzz: $build is not configured with -DACLSIM_FUZZ=ON" >&2
  exit 1
fi
# Only the fuzzers (and what they link), not the rest of the tree: one target per
# fuzz/<name>_fuzzer.cc (fuzz/CMakeLists.txt lists the names).
mapfile -t targets < <(cd fuzz && ls -1 -- *_fuzzer.cc | sed 's/\.cc$//' | sort)
if [ ${#targets[@]} -eq 0 ]; then
  echo "=== fuzz: no *_fuzzer targets found" >&2
  exit 1
fi
echo "=== fuzz: build in $build"
ninja -C "$build" -j "$jobs" "${targets[@]}"

# One target per core at a time (libFuzzer runs one process per target).
run_target() {
  local target="$1"
  local name="${target%_fuzzer}"
  local seeds="fuzz/corpus/$name"
  local work="$build/fuzz-run/corpus/$name"  # grows across runs; the committed seeds stay as they are
  local artifacts="$build/fuzz-run/artifacts/$name/"
  mkdir -p "$work" "$artifacts"
  local runs
  case "$name" in
    onnx_import) runs=36000 ;;
    singleop_json) runs=27000 ;;
    om_model) runs=90000 ;;
    *) runs=100000 ;;
  esac
  runs="${ACLSIM_FUZZ_RUNS:-$runs}"
  local seed="${ACLSIM_FUZZ_SEED:-1}"
  echo "=== fuzz: $target: $runs runs, seed $seed, at most ${seconds}s (seeds: $seeds)"
  local log="$build/fuzz-run/$target.log"
  if ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
      "$build/fuzz/$target" "$work" "$seeds" -runs="$runs" -seed="$seed" -max_total_time="$seconds" -max_len=8192 \
      -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$artifacts" -print_final_stats=1 \
      >"$log" 2>&1; then
    echo "=== fuzz: $target: clean ($(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}') runs)"
  else
    echo "=== fuzz: $target: FAILED; the last lines of $log:" >&2
    tail -n 40 "$log" >&2
    ls "$artifacts" >&2 || true
    return 1
  fi
}

status=0
running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
  run_target "$target" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done
exit $status
