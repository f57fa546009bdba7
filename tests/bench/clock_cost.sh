#!/bin/sh
# What one latency sample costs in clyde's fastest loops (stat by name,
# 8 KiB reads), measured in one process: see tests/bench/clock_cost.c.
#
#   tests/bench/clock_cost.sh [DIR]   (default: a fresh tmpfs, which needs root)
set -eu
cd "$(dirname "$0")/../.."
work=$(mktemp -d /tmp/clyde-clock.XXXXXX)
mounted=""
trap '[ -n "$mounted" ] && umount "$work/mnt"; rm -rf "$work"' EXIT

${CC:-cc} -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_XOPEN_SOURCE=700 \
    -Iinclude -o "$work/clock_cost" tests/bench/clock_cost.c src/timing.c
if [ $# -gt 0 ]; then
	dir=$1
else
	mkdir "$work/mnt"
	mount -t tmpfs -o size=1g tmpfs "$work/mnt"
	mounted=1
	dir=$work/mnt
fi
mkdir "$dir/clock_cost.$$"
"$work/clock_cost" "$dir/clock_cost.$$"
rmdir "$dir/clock_cost.$$"
