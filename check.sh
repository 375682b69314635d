#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test. Exits non-zero on any failure.
set -euo pipefail
top=$(cd "$(dirname "$0")" && pwd)
"$top/scripts/build.sh"
cd "$top/build"
if ! make -s -j"$(nproc)" check; then
  echo "check.sh: tests FAILED; logs: build/tests/*.log and build/test-suite.log" >&2
  cat test-suite.log >&2 || true
  exit 1
fi
"$top/tests/install/check-install.sh" "$top/build"
# The habits: the format and clang-tidy's checks (make lint), and the libraries' unit tests and
# fuzzing corpora under AddressSanitizer and UndefinedBehaviorSanitizer (in build-asan/).
"$top/scripts/lint.sh" "$top/build"
"$top/scripts/sanitize.sh"
echo "check.sh: all tests passed"
