#!/usr/bin/env bash
# `make install` smoke test: installs into a staging directory, then builds and runs a small
# program against the installed headers, libraries and pkg-config file, and runs the installed
# `replay`. Usage: tests/install/check-install.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

make -s -C "$build" install DESTDIR="$stage" >"$stage/install.log" 2>&1 ||
  { cat "$stage/install.log" >&2; echo "check-install: make install failed" >&2; exit 1; }
prefix=$(sed -n 's/^prefix=//p' "$build/tareador.pc")
root="$stage$prefix"
for f in bin/replay bin/tareador bin/tareador-calibrate include/tareador/trace.h \
         include/tareador/replay.h lib/pkgconfig/tareador.pc; do
  [ -e "$root/$f" ] || { echo "check-install: $f was not installed" >&2; exit 1; }
done

cat > "$stage/consumer.cpp" <<'CPP'
#include <tareador/replay.h>
#include <cstdio>
int main(int argc, char** argv) {
  auto machine = tareador::replay::load_machine(argv[1]);
  auto trace = tareador::trace::open_dimemas(argv[2]);
  std::printf("%.9f\n", tareador::replay::simulate(*trace, machine).total_time);
}
CPP
flags=$(PKG_CONFIG_PATH="$root/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$stage" \
        pkg-config --cflags --libs tareador)
# shellcheck disable=SC2086
g++ -std=c++17 "$stage/consumer.cpp" -o "$stage/consumer" $flags
fixtures="$top/tests/fixtures/dimemas"
got=$(LD_LIBRARY_PATH="$root/lib" "$stage/consumer" "$fixtures/cfg_4n_nobus.cfg" "$fixtures/pingpong.dim")
[ "$got" = "0.008639395" ] || { echo "check-install: consumer printed '$got', expected 0.008639395" >&2; exit 1; }
LD_LIBRARY_PATH="$root/lib" "$root/bin/replay" --version | grep -q '^replay (tareador) ' ||
  { echo "check-install: installed replay --version failed" >&2; exit 1; }
# The installed tool: valgrind finds it (and the stock files, linked beside it) through the
# VALGRIND_LIB the installed `tareador` command sets; here, its staged copy.
toolexec=$(sed -n "s/^VALGRIND_LIB='\(.*\)'$/\1/p" "$root/bin/tareador")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
for mpi in openmpi mpich; do
  program="$build/examples/mpi/$mpi/ring"
  [ -x "$program" ] || continue
  launcher=$([ $mpi = openmpi ] && echo mpirun.openmpi || echo mpiexec.mpich)
  VALGRIND_LIB="$stage$toolexec" "$launcher" -np 2 valgrind --tool=tareador \
    --trace-dir="$stage/set-$mpi" "$program" >"$stage/tool.log" 2>&1 ||
    { cat "$stage/tool.log" >&2; echo "check-install: the installed tool failed ($mpi)" >&2; exit 1; }
  LD_LIBRARY_PATH="$root/lib" "$root/bin/replay" --validate "$stage/set-$mpi" >/dev/null ||
    { echo "check-install: the installed tool's trace ($mpi) is not valid" >&2; exit 1; }
done
echo "check-install: headers, libraries, pkg-config file, replay and the tool install and work"
