#!/usr/bin/env bash
# Runs every test suite: the native GoogleTest suites through CTest, then the
# JavaScript package's tests when the package is part of the checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure -j2
