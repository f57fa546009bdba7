#!/bin/sh
# What naming a file from a directory descriptor costs beside naming it
# from the working directory, in stat() and unlink() passes over one
# directory: see tests/bench/at_cost.c.
#
#   tests/bench/at_cost.sh [DIR]   (default: a fresh tmpfs, which needs root)
set -eu
cd "$(dirname "$0")/../.."
work=$(mktemp -d /tmp/clyde-at.XXXXXX)
mounted=""
trap '[ -n "$mounted" ] && umount "$work/mnt"; rm -rf "$work"' EXIT

${CC:-cc} -O2 -std=c11 -Wall -Wextra -o "$work/at_cost" tests/bench/at_cost.c
if [ $# -gt 0 ]; then
	dir=$1
else
	mkdir "$work/mnt"
	mount -t tmpfs -o size=1g tmpfs "$work/mnt"
	mounted=1
	dir=$work/mnt
fi
mkdir "$dir/at_cost.$$"
"$work/at_cost" "$dir/at_cost.$$"
rmdir "$dir/at_cost.$$"
