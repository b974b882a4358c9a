#!/bin/sh
# Runs each test binary under a time limit, echoes its TAP output, and ends
# with one line: "N passed, N failed". A binary that crashes, times out or
# exits non-zero counts as one more failure (a hang fails one binary, not the
# suite). Each binary's wall time follows its output ("# test_foo: 12.3 s"),
# and the ten slowest, with the whole run's time, come before the last line:
# where a pass's time goes, in CI's log too. Usage: run-tests.sh BIN...
# One test by name: run-tests.sh NAME [CASE], NAME not a file (p2p,
# test_p2p, test_mpi.sh), is make check T=NAME CASE=CASE, which builds what
# the test needs and comes back here with its path. A case not selected
# (VP_TEST_CASE) is reported "# SKIP not selected" and counted apart.
limit=${VP_TEST_TIMEOUT:-300}
here=$(dirname "$0")
if [ $# -ge 1 ] && [ $# -le 2 ] && [ ! -e "$1" ]; then
	cd "$here/.." || exit 1
	exec ${MAKE:-make} --no-print-directory check T="$1" \
	    ${SAN:+SAN="$SAN"} ${2:+CASE="$2"}
fi
if [ -n "$SAN" ]; then
	export VP_TEST_QUICK=${VP_TEST_QUICK:-1}
	# test_mpi.sh's rank counts (its head comment says why)
	nps="1 2 3 8"
	[ "$SAN" != thread ] || nps="2 8"
	export VP_MPI_NPS=${VP_MPI_NPS:-$nps}
	export VP_SOAK_MESSAGES=${VP_SOAK_MESSAGES:-100000}
fi
if [ "$SAN" = thread ]; then
	export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$here/tsan.supp ${TSAN_OPTIONS:-}"
fi
if [ "$SAN" = address ]; then
	export ASAN_OPTIONS="detect_leaks=1 ${ASAN_OPTIONS:-}"
	export UBSAN_OPTIONS="print_stacktrace=1 halt_on_error=1"
fi
pass=0
fail=0
skipped=0
# now: seconds since the epoch, to the millisecond
now() { date +%s.%N | cut -c1-14; }
times=$(mktemp)
run_t0=$(now)
for bin in "$@"; do
	name=$(basename "$bin")
	echo "# $name"
	out=$(mktemp)
	# VP_TEST_WRAP runs the binary under a tool (make valgrind)
	t0=$(now)
	# the MPI scripts build and run some 60 programs at five rank
	# counts (and under Open MPI): three times the limit
	lim=$limit
	case $name in test_mpi*.sh) lim=$((limit * 3)) ;; esac
	timeout -k 10 "$lim" ${VP_TEST_WRAP:-} "$bin" >"$out" 2>"$out.err"
	rc=$?
	cat "$out"
	secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
	echo "# $name: $secs s"
	echo "$secs $name" >>"$times"
	p=$(grep '^ok ' "$out" | grep -vc '# SKIP not selected$')
	skipped=$((skipped + $(grep -c '^ok .*# SKIP not selected$' "$out")))
	f=$(grep -c '^not ok ' "$out")
	pass=$((pass + p))
	fail=$((fail + f))
	if [ $rc -ne 0 ]; then
		if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
			echo "not ok - $name timed out after ${lim}s"
		else
			echo "not ok - $name exited with status $rc"
		fi
		tail -n 30 "$out.err" | sed 's/^/#   /'
		fail=$((fail + 1))
	fi
	rm -f "$out" "$out.err"
done
if [ -n "${VP_TEST_CASE:-}" ]; then
	echo "# $skipped cases not selected by '$VP_TEST_CASE'"
	[ $((pass + fail)) -gt 0 ] ||
		echo "# no case matches '$VP_TEST_CASE'"
fi
if [ $# -gt 1 ]; then
	echo "# the slowest of $# in $(awk -v a="$run_t0" -v b="$(now)" \
	    'BEGIN { printf "%.1f", b - a }') s:"
	sort -rn "$times" | head -n 10 |
	    awk '{ printf "#   %s: %s s\n", $2, $1 }'
fi
rm -f "$times"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
