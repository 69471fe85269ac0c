#!/usr/bin/env bash
# Quick start 1: install what is missing, build everything, run the bundled examples on the
# simulated NPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh release
# Every example is a ctest test labelled "example"; -V shows what each one prints.
ctest --test-dir build/release -L example --output-on-failure -V | grep -v '^[0-9]*: Test command\|^UpdateCTestConfiguration\|^Parse\|^ Add Test\|^Constructing\|^Checking test dependency\|^Test project\|^test [0-9]\|Working Directory\|Test timeout'
