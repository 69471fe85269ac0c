#!/usr/bin/env bash
# Quick start 2: install what is missing, then build and pass the whole test suite:
# format check, layering check (scripts/check-layers.py), a release build, an ASan+UBSan
# build and a TSan build, each running every test (unit, driver conformance, ABI, API,
# examples, SDK install), the release API tests and examples once more with the memory
# checker on, and each libFuzzer target for a bounded
# time (scripts/run-fuzz.sh; built in the ASan+UBSan tree when clang builds it, else in
# build/fuzz; ACLSIM_FUZZ_SECONDS per target at most, default 60; a fixed seed and number of
# runs), and clang-tidy (beside the release tests, over the ASan+UBSan tree's unity sources).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

echo "=== [${SECONDS}s] format check"
scripts/check-format.sh
echo "=== [${SECONDS}s] layering check"
python3 scripts/check-layers.py

passed=0
failed=0
run_suite() {
  local flavour="$1"
  echo "=== [${SECONDS}s] $flavour: build"
  scripts/build.sh "$flavour"
  test_suite "$flavour"
}
test_suite() {
  local flavour="$1"
  echo "=== [${SECONDS}s] $flavour: test"
  local log="build/$flavour/ctest.log"
  # Logs of the tests go to the build tree, not to $HOME/ascend/log.
  export ASCEND_PROCESS_LOG_PATH="$PWD/build/$flavour/ascend-log"
  if ctest --test-dir "build/$flavour" --output-on-failure -j 2 --timeout 600 | tee "$log"; then
    :
  else
    failed=$((failed + 1))
  fi
  local line
  line="$(grep -E 'tests passed, [0-9]+ tests failed out of' "$log" | tail -n 1 || true)"
  if [ -n "$line" ]; then
    local total fails
    total="$(echo "$line" | sed -E 's/.*out of ([0-9]+).*/\1/')"
    fails="$(echo "$line" | sed -E 's/.* ([0-9]+) tests failed.*/\1/')"
    passed=$((passed + total - fails))
    failed=$((failed + fails))
  fi
}

echo "=== [${SECONDS}s] release: build"
scripts/build.sh release
# clang-tidy runs beside the release tests, which leave the cores half idle (they wait on
# simulated devices and child processes). It reads the ASan+UBSan tree, configured here and
# built after: a unity build, whose batches clang-tidy checks in less than half the CPU time it
# takes file by file (scripts/check-tidy.sh), and compiled by clang, as clang-tidy parses.
scripts/build.sh --configure-only asan
echo "=== [${SECONDS}s] clang-tidy (in the background)"
scripts/check-tidy.sh build/asan > build/tidy.out 2>&1 &
tidy_pid=$!
test_suite release
# The API tests and examples again with the memory checker on: it must report nothing
# (docs/memory.md); its own seeded faults are in tests/api/memcheck_test.cc.
echo "=== [${SECONDS}s] release: API tests and examples with ACLSIM_MEMCHECK=1"
memcheck_log="build/release/ctest-memcheck.log"
if ACLSIM_MEMCHECK=1 ctest --test-dir build/release -L 'api|example' --output-on-failure -j 2 \
    --timeout 600 | tee "$memcheck_log"; then
  :
else
  failed=$((failed + 1))
fi
if wait "$tidy_pid"; then
  echo "=== [${SECONDS}s] clang-tidy: ok"
else
  cat build/tidy.out
  echo "=== [${SECONDS}s] clang-tidy: FAILED"
  failed=$((failed + 1))
fi
ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
  run_suite asan
# The libFuzzer targets, each for a bounded time from its committed corpus: built in the
# ASan+UBSan tree when clang built it (scripts/build.sh), else in a tree of their own.
echo "=== [${SECONDS}s] fuzz"
fuzz_tree=""
if grep -q '^ACLSIM_FUZZ:BOOL=ON' build/asan/CMakeCache.txt 2>/dev/null; then
  fuzz_tree=build/asan
fi
if ACLSIM_FUZZ_BUILD="$fuzz_tree" scripts/run-fuzz.sh "${ACLSIM_FUZZ_SECONDS:-60}"; then
  :
else
  echo "=== [${SECONDS}s] fuzz: FAILED"
  failed=$((failed + 1))
fi
TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1" run_suite tsan

echo "all suites: $passed passed, $failed failed (${SECONDS}s)"
[ "$failed" -eq 0 ]
