#!/usr/bin/env bash
# Installs missing dependencies, then configures (once) and builds in ./build.
# Used by demo.sh and check.sh; safe to run again (only what changed is rebuilt).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
scripts/install-deps.sh
[ -x configure ] || ./bootstrap
mkdir -p build
cd build
[ -f Makefile ] || ../configure --quiet --enable-werror
make -s -j"$(nproc)"
