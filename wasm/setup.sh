#!/usr/bin/env bash
# Installs what the WebAssembly package needs and builds it into dist/:
# Debian's emscripten and cmake (Node.js and npm must be there
# already), the npm dev dependencies (typescript for the declaration test, vite
# and webpack for the bundler tests, playwright-core for the browser tests), then
# `npm run build`. Re-running is cheap: installed packages are skipped and the
# CMake builds in build-wasm/ are incremental.
#   wasm/setup.sh && npm test
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
need=()
for pkg in emscripten cmake; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then need+=(nodejs npm); fi
if [ ${#need[@]} -gt 0 ]; then
  echo "wasm/setup: installing ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [ ! -d node_modules/typescript ] || [ ! -d node_modules/vite ] || [ ! -d node_modules/webpack-cli ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
npm run build --silent
