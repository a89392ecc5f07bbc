#!/usr/bin/env bash
# Runs every test suite: the native GoogleTest suites through CTest (Release
# build); the same suites again under AddressSanitizer + UndefinedBehaviorSanitizer
# (build-asan); the multi-threaded solver tests under ThreadSanitizer
# (build-tsan); each libFuzzer target for a bounded time (build-fuzz); and the
# npm package's and the page's tests (npm test).
#
#   IOPDDL_SANITIZERS=0      skip the ASan/UBSan and TSan suites
#   IOPDDL_FUZZ_SECONDS=N    seconds per fuzzer (default 30; 0 skips fuzzing)
#   IOPDDL_JS=0              skip the npm package and page tests
set -euo pipefail
cd "$(dirname "$0")/.."
SANITIZERS="${IOPDDL_SANITIZERS:-1}"
FUZZ_SECONDS="${IOPDDL_FUZZ_SECONDS:-30}"

stage() { echo; echo "=== test.sh: $* ($(date -u +%H:%M:%S))"; }

scripts/setup.sh
stage "native suites (Release)"
ctest --test-dir build --output-on-failure -j2

# Sanitizer builds: -O1 with debug info; every report is fatal.
SAN_FLAGS=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g")
export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"

if [ "$SANITIZERS" != 0 ]; then
  # g++'s sanitizers come with g++ (libasan, libubsan, libtsan): no extra packages.
  stage "ASan + UBSan build"
  cmake -S . -B build-asan -DIOPDDL_SANITIZE=ON "${SAN_FLAGS[@]}" >/dev/null
  cmake --build build-asan -j2
  stage "native suites under ASan + UBSan"
  ctest --test-dir build-asan --output-on-failure -j2

  stage "TSan build"
  cmake -S . -B build-tsan -DIOPDDL_TSAN=ON "${SAN_FLAGS[@]}" >/dev/null
  cmake --build build-tsan -j2
  # The threaded runs: the loader's gzip pipeline, two proof searches on one tree (alone and in a solve), the solver suite (less the single-threaded
  # determinism test and lockstep's on V, slow under TSan, and the rounds-per-second check, which
  # TSan's slowdown fails), lockstep's meetings and the CLI solving the bundled instances.
  stage "multi-threaded solver tests under TSan"
  ctest --test-dir build-tsan --output-on-failure -j2 --no-tests=error \
    -R '^(Solver\.|Restarts\.|SolveSession\.|Lockstep\.|ProofSearch\.(SharedTreeInTwoThreads|ProvesGOptimalWithBoth)|Cli\.Solves|Cli\.QuietPrints|Loader\.GzipFile)' \
    -E '^Solver\.(DeterministicWithOneThreadAndFixedSeed|FeasibleWithinDeadlineOnRealInstanceWithThreads|TwoThreadsUnderARoundBudgetRepeatThemselvesOnV)$'
fi

if [ "$FUZZ_SECONDS" != 0 ]; then
  # libFuzzer needs clang and its runtime libraries (Debian: clang, libclang-rt-N-dev).
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  if ! command -v clang++ >/dev/null 2>&1; then
    echo "test.sh: installing clang"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends clang >/dev/null
  fi
  CLANG_MAJOR="$(clang++ -dumpversion | cut -d. -f1)"
  RT_PKG="libclang-rt-${CLANG_MAJOR}-dev"
  if ! dpkg -s "$RT_PKG" >/dev/null 2>&1; then
    echo "test.sh: installing $RT_PKG"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$RT_PKG" >/dev/null
  fi

  # fuzz_json_diff checks the JSON parser against RapidJSON (header-only; a
  # test-only dependency).
  if ! dpkg -s rapidjson-dev >/dev/null 2>&1; then
    echo "test.sh: installing rapidjson-dev"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends rapidjson-dev >/dev/null
  fi

  stage "fuzzer build (clang, libFuzzer + ASan + UBSan)"
  CXX=clang++ cmake -S . -B build-fuzz -DIOPDDL_FUZZ=ON -DIOPDDL_BUILD_TESTS=OFF -DIOPDDL_BUILD_CLI=OFF \
    "${SAN_FLAGS[@]}" >/dev/null
  FUZZ_TARGETS=(fuzz_load fuzz_evaluate fuzz_json_diff)
  cmake --build build-fuzz -j2 --target "${FUZZ_TARGETS[@]}"
  for target in "${FUZZ_TARGETS[@]}"; do
    stage "$target for ${FUZZ_SECONDS} s"
    # New inputs go to a scratch folder; the checked-in seeds stay as they are.
    work="build-fuzz/ci-$target"
    rm -rf "$work" && mkdir -p "$work/corpus" "$work/artifacts" "$work/seeds"
    if [ "$target" = fuzz_json_diff ]; then
      # The parser's seeds also take the JSON text of tests/data and of the
      # malformed corpus (its .gz files are not JSON text).
      cp tests/data/*.json tests/data/malformed/*.json "$work/seeds/"
    fi
    if ! build-fuzz/fuzz/$target -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
        -max_len=8192 -dict=fuzz/json.dict -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
        "$work/corpus" fuzz/corpus "$work/seeds" >"$work/log" 2>&1; then
      tail -n 60 "$work/log"
      echo "test.sh: $target found a failure; the input is in $work/artifacts/:"
      ls -l "$work/artifacts/"
      exit 1
    fi
    grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added|stat::peak_rss_mb)' "$work/log"
    echo "$target: passed"
  done
fi

# The npm package (and the page): Emscripten, node modules, Debian's Chromium
# for the browser tests, then `npm test` (node --test).
if [ "${IOPDDL_JS:-1}" != 0 ]; then
  stage "npm package: setup and build"
  if ! dpkg -s chromium >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
    echo "test.sh: installing chromium"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
  fi
  wasm/setup.sh
  stage "npm test"
  npm test
fi

stage "all suites passed"
