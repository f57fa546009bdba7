#!/bin/sh
# Build clyde from this tree's sources in a directory of the caller's, for
# the bench scripts, leaving the tree's own build as it is.
#
#   tests/bench/build_clyde.sh DIR [make variables...]
#   e.g. tests/bench/build_clyde.sh "$work/untimed" CPPFLAGS=-DCLYDE_NO_OP_TIMING
#
# Sources only are copied: an object file of the tree's build (made with
# other flags) would otherwise be reused.  The binary is DIR/clyde.
set -eu
[ $# -ge 1 ] || { echo "usage: build_clyde.sh DIR [make variables...]" >&2; exit 1; }
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$1
shift
mkdir -p "$dir"
(cd "$root" && tar cf - --exclude="*.o" --exclude="*.d" src include) | tar xf - -C "$dir"
cp "$root/Makefile" "$dir/"
make -s -C "$dir" clyde "$@" >/dev/null
