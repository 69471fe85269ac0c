#!/usr/bin/env bash
# Installs npm's onnxruntime-node (the reference CPU engine of bench/model_bench) into
# build/ort. A test-only tool: nothing in the build or the test suite needs it. Its install
# script only fetches extras from a host these machines cannot reach, so it is skipped; the
# CPU library ships in the package.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v npm > /dev/null; then
  echo "install-ort: npm not found (apt-get install npm)" >&2
  exit 1
fi
mkdir -p build/ort
npm install --prefix build/ort --ignore-scripts --no-audit --no-fund onnxruntime-node
