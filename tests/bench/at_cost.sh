#!/bin/sh
# What naming a file from a directory descriptor costs beside naming it
# from the working directory, in stat() and unlink() passes over one
# directory (tests/bench/at_cost.c); then a file in a subdirectory, or a
# directory of --dirs, by its single name from the subdirectory's
# descriptor beside by its path from above (tests/bench/sub_cost.c).
#
#   tests/bench/at_cost.sh [DIR]   (default: a fresh tmpfs, which needs root)
set -eu
cd "$(dirname "$0")/../.."
NAME=at
. tests/bench/in_dir_lib.sh

for prog in at_cost sub_cost; do
	${CC:-cc} -O2 -std=c11 -Wall -Wextra -o "$work/$prog" "tests/bench/$prog.c"
	run_in_dir "$work/$prog" "$@"
done
