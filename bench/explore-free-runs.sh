#!/bin/sh
# explore-free-runs.sh - how often the example bugs of docs/schedules.md
# (tests/mpi/explore_*.c) show when run freely, without a schedule: each
# program RUNS times with vpmpirun (an MPI program's ranks are threads),
# counting the runs that fail (exit status not 0).
#   bench/explore-free-runs.sh [RUNS [BUILD]]   (1000, build)
# One line per program.
runs=${1:-1000}
build=${2:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name and rank count of each example
for spec in explore_order:4 explore_deadlock:3 explore_iprobe:3 \
    explore_flush:2 explore_unsafe:2; do
	p=${spec%:*} np=${spec#*:}
	"$build/vpmpicc" -O2 "$here/tests/mpi/$p.c" -o "$tmp/$p" || exit 1
	failed=0 i=0
	while [ $i -lt "$runs" ]; do
		timeout 60 "$build/vpmpirun" -np "$np" "$tmp/$p" \
		    >/dev/null 2>&1 || failed=$((failed + 1))
		i=$((i + 1))
	done
	echo "$p -np $np: $failed of $runs runs failed"
done
