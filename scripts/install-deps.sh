#!/usr/bin/env bash
# Installs the Debian packages Tareador needs to build and test, and only the missing ones.
# Idempotent; works as root (no sudo needed) or as a user with sudo.
set -euo pipefail

# One line per concern: adding a dependency is adding a package to one of these lists.
build_tools=(g++ make autoconf automake libtool pkg-config autoconf-archive)
libraries=(libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libfmt-dev libboost-dev libboost-graph-dev)
test_tools=(libgtest-dev libgmock-dev python3)
# make lint: the format and the static checks (scripts/lint.sh).
lint_tools=(clang-format clang-tidy)
# Benchmarks measure peak memory with GNU time.
bench_tools=(time)
# The Valgrind tool builds against Debian's valgrind; MPI programs run on both Open MPI and MPICH.
tool=(valgrind gfortran libopenmpi-dev openmpi-bin libmpich-dev mpich)
# Task graphs are drawn with Graphviz's library; the viewer is Qt 6 (tested offscreen and under
# Xvfb).
graphs=(libgraphviz-dev)
# Communication graphs are partitioned with METIS (the prediction of an MPI version).
partitioning=(libmetis-dev)
viewer=(qt6-base-dev qt6-svg-dev xvfb xauth)

packages=("${build_tools[@]}" "${libraries[@]}" "${test_tools[@]}" "${lint_tools[@]}" "${bench_tools[@]}" "${tool[@]}"
          "${graphs[@]}" "${partitioning[@]}" "${viewer[@]}")

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: missing packages (${missing[*]}) and neither root nor sudo available" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
