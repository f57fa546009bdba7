#!/bin/sh
# What one latency sample costs in clyde's fastest loops (stat by name,
# 8 KiB reads), measured in one process: see tests/bench/clock_cost.c.
#
#   tests/bench/clock_cost.sh [DIR]   (default: a fresh tmpfs, which needs root)
set -eu
cd "$(dirname "$0")/../.."
NAME=clock
. tests/bench/in_dir_lib.sh

${CC:-cc} -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_XOPEN_SOURCE=700 \
    -Isrc -Iinclude -o "$work/clock_cost" tests/bench/clock_cost.c src/core/timing.c src/lib/fdio.c
run_in_dir "$work/clock_cost" "$@"
