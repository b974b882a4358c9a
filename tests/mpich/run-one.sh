#!/bin/bash
# run-one.sh 'LAUNCHER -np' TMAX BIN NP [key=value ...] - runs one instance
# of a test of MPICH's suite for run.sh, as MPICH's runtests does, and
# prints its verdict: "pass", "fail REASON", "xfail REASON" (a failure the
# testlist expects: xfail=) or "skip REASON", then, when the program ran,
# a line "time SECONDS": the launch's wall time. The output goes to
# the file OUTFILE names (absolute). MPITEST_MPIVERSION: the MPI's version
# (mpiversion=). MPITEST_MEMORY_TOTAL: the machine's memory in GB; as
# MPICH's runtests, an instance whose mem= (GB) exceeds it is skipped, and
# one that needs more than its share of the MPITEST_JOBS running at once
# runs alone (MPITEST_MEMLOCK: the lock file that orders them).
launch=$1 tmax=$2 bin=$3 np=$4
shift 4
args=() envs=() t=$tmax xfail="" allow=0 minver="" fatal=0 wall= mem=
for kv in "$@"; do
	case $kv in
	arg=*) args+=("${kv#arg=}") ;;
	env=*) envs+=("${kv#env=}") ;;
	timeLimit=*) t=${kv#timeLimit=} ;;
	xfail=*) xfail=${kv#xfail=} ;;
	mpiversion=*) minver=${kv#mpiversion=} ;;
	mem=*) mem=${kv#mem=} ;;
	resultTest=TestAllowWarnings) allow=1 ;;
	resultTest=TestStatus | resultTest=TestErrFatal) fatal=1 ;;
	esac
done
verdict() {
	if [ -n "$xfail" ] && [ "${1%% *}" = fail ]; then
		echo "xfail ${1#fail } ($xfail)"
	else
		echo "$1"
	fi
	[ -n "$wall" ] && echo "time $wall"
	exit 0
}
total=${MPITEST_MEMORY_TOTAL:-}
if [ -n "$mem" ] && [ -n "$total" ] &&
	awk -v a="$mem" -v b="$total" 'BEGIN { exit !(a + 0 > b + 0) }'; then
	verdict "skip needs ${mem} GB of memory (the machine has ${total} GB)"
fi
if [ -f "$bin.failed" ]; then
	verdict "$(cat "$bin.failed")"
fi
if [ -n "$minver" ] && [ -n "${MPITEST_MPIVERSION:-}" ] &&
	awk -v a="$MPITEST_MPIVERSION" -v b="$minver" 'BEGIN { exit !(a + 0 < b + 0) }'; then
	verdict "skip needs MPI $minver"
fi
if [ -n "$mem" ] && [ -n "$total" ] && [ -n "${MPITEST_MEMLOCK:-}" ]; then
	exec 9>>"$MPITEST_MEMLOCK"
	if awk -v a="$mem" -v j="${MPITEST_JOBS:-1}" -v b="$total" 'BEGIN { exit !(a * j > b) }'; then
		flock -x 9
	else
		flock -s 9
	fi
fi
log=${OUTFILE:?}
cd "$(dirname "$bin")" || exit 1
t0=$EPOCHREALTIME
timeout -k 5 "$t" env "${envs[@]}" $launch "$np" "./$(basename "$bin")" "${args[@]}" >"$log" 2>&1 </dev/null
rc=$?
t1=$EPOCHREALTIME
# microseconds, from bash's clock (seconds, the locale's decimal point and
# six digits)
us=$(( (${t1%[.,]*} - ${t0%[.,]*}) * 1000000 + 10#${t1#*[.,]} - 10#${t0#*[.,]} ))
printf -v wall '%d.%03d' $((us / 1000000)) $((us % 1000000 / 1000))
# resultTest=TestStatus, TestErrFatal: the program must fail (a non-zero
# exit status, a timeout included), whatever it prints
if [ $fatal = 1 ]; then
	[ "$rc" != 0 ] && verdict pass
	verdict "fail exit 0 where a failure is the expected result"
fi
[ $rc = 124 ] || [ $rc = 137 ] && verdict "fail timeout (${t}s)"
ok=$(grep -cE '^[[:space:]]*No [Ee]rrors[[:space:]]*$' "$log")
other=$(grep -vcE '^[[:space:]]*No [Ee]rrors[[:space:]]*$' "$log")
if [ "$rc" != 0 ]; then
	first=$(grep -m1 -E 'rank [0-9]+|[Ee]rror|undefined|Abort' "$log" | cut -c1-100)
	verdict "fail exit $rc: ${first:-$(head -1 "$log" | cut -c1-100)}"
fi
[ "$ok" = 0 ] && verdict "fail no 'No Errors': $(head -1 "$log" | cut -c1-100)"
[ $allow = 0 ] && [ "$other" != 0 ] && verdict "fail unexpected output: $(grep -m1 -vE '^[[:space:]]*No [Ee]rrors' "$log" | cut -c1-100)"
verdict pass
