#!/usr/bin/env bash
# The libraries and their unit tests built with AddressSanitizer and UndefinedBehaviorSanitizer
# (in build-asan/, configured once), then the unit tests and the fuzzing corpora run there: a
# memory error or undefined behaviour fails. (The Valgrind tool is not in it: it runs without
# libc, inside valgrind.)
#
#   scripts/sanitize.sh [BUILD_DIR]       default: ./build-asan
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build-asan}
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1"
mkdir -p "$build"
cd "$build"
# (Not --enable-werror: GCC warns falsely of uninitialized values in libstdc++ under the
# sanitizers.)
[ -f Makefile ] || "$top/configure" --quiet CXXFLAGS="$flags" LDFLAGS="-fsanitize=address,undefined"
make -s -j"$(nproc)" tests/unit_tests tests/fuzz/corpus_replay
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  LSAN_OPTIONS=suppressions=$top/tests/sanitize/lsan.supp:print_suppressions=0
./tests/unit_tests --gtest_brief=1
CORPUS_SANITIZED=1 CORPUS_REPLAY=$PWD/tests/fuzz/corpus_replay "$top/tests/fuzz/corpus.sh"
echo "sanitize: the unit tests and the fuzzing corpora ran clean under ASan and UBSan"
