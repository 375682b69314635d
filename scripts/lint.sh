#!/usr/bin/env bash
# make lint: the sources in the project's format (.clang-format; vg-tool/.clang-format for the
# tool's C) and clean of the clang-tidy checks of .clang-tidy. With --fix, formats them instead.
#
#   scripts/lint.sh [--fix] [BUILD_DIR]        default: ./build (for config.h)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
fix=no
[ "${1:-}" = --fix ] && { fix=yes; shift; }
build=$(cd "${1:-$top/build}" && pwd)
cd "$top"

# The project's code: libraries, commands, the tool, the viewer, the C++ tests and benchmarks.
# (The example and test programs traced by the tool are written as their users would.)
mapfile -t sources < <(git ls-files '*.cpp' '*.h' '*.c' |
  grep -v -e '^examples/' -e '^tests/vg/' -e '^tests/fuzz/corpus/' -e '^bench/.*\.c$')

if [ $fix = yes ]; then
  clang-format -i "${sources[@]}"
  exit 0
fi
status=0
clang-format --dry-run --Werror "${sources[@]}" 2>"$build/lint-format.log" || {
  echo "lint: not in the project's format (scripts/lint.sh --fix formats them):" >&2
  grep -o '^[^:]*\.[ch]p*' "$build/lint-format.log" | sort -u | sed 's/^/  /' >&2
  status=1
}

# clang-tidy on the C++ of the libraries and commands, with the flags they are built with.
# (The replay command's MPI flags as configure found them.)
flags=(-std=c++17 -I"$top/include" -I"$top" -I"$build" $(pkg-config --cflags fmt tomlplusplus nlohmann_json libgvc)
       $(sed -n 's/^REPLAY_MPI_CFLAGS = //p' "$build/Makefile"))
mapfile -t tidy < <(printf '%s\n' "${sources[@]}" |
  grep -e '^tracefmt/.*\.cpp$' -e '^replay/.*\.cpp$' -e '^tasks/.*\.cpp$' -e '^patterns/.*\.cpp$' \
       -e '^plot/.*\.cpp$' -e '^analysis/.*\.cpp$' -e '^search/.*\.cpp$' -e '^comm/.*\.cpp$')
if ! clang-tidy --quiet "${tidy[@]}" -- "${flags[@]}" -DPACKAGE_VERSION='"lint"' -DTAREADOR_PKGLIBDIR='"lint"' \
     >"$build/lint-tidy.log" 2>&1; then
  echo "lint: clang-tidy found problems:" >&2
  grep -E 'warning:|error:' "$build/lint-tidy.log" | head -40 >&2
  status=1
fi
[ $status -eq 0 ] && echo "lint: clean (${#sources[@]} files formatted, ${#tidy[@]} checked by clang-tidy)"
exit $status
