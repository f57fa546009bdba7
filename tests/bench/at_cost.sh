#!/bin/sh
# What naming a file from a directory descriptor costs beside naming it
# from the working directory, in stat() and unlink() passes over one
# directory: see tests/bench/at_cost.c.
#
#   tests/bench/at_cost.sh [DIR]   (default: a fresh tmpfs, which needs root)
set -eu
cd "$(dirname "$0")/../.."
NAME=at
. tests/bench/in_dir_lib.sh

${CC:-cc} -O2 -std=c11 -Wall -Wextra -o "$work/at_cost" tests/bench/at_cost.c
run_in_dir "$work/at_cost" "$@"
