#!/usr/bin/env bash
# Regenerates the API coverage tables in README.md from src/api/manifest/acl_api.def and
# aclnn_api.def.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh release >/dev/null
build/release/tools/api_table/aclsim-api-table --update README.md
