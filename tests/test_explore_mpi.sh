#!/bin/sh
# test_explore_mpi.sh - vpmpirun --explore and --schedule on unchanged MPI
# programs whose bug a free run almost never shows (tests/mpi/explore_*.c;
# bench/explore-free-runs.sh counts how often it does):
#   - each bug (a master assuming MPI_ANY_SOURCE results in rank order, a
#     deadlock behind one wildcard match, an MPI_Iprobe loop taking DONE
#     before DATA, a put read before the origin's flush, an exchange that
#     relies on its sends being buffered) is found within the runs given,
#     under uniform and PCT schedules: exit status 1, the failing seed with
#     its first report line, a summary (runs, failures, distinct match
#     orders, distinct schedules) and the command that replays the first
#     failure; running that command three times fails the same way each
#     time (the same status and stderr, its first line the explored one's)
#     with a report that names the cause;
#   - the corrected programs pass every schedule (exit status 0) while
#     their match orders vary (those with wildcards);
#   - --schedule SEED replays one run exactly: the same output and the
#     same space-time diagram (--svg) twice; with --explore it is the
#     first seed;
#   - a run that never ends is killed after --timeout and counted;
#   - progress lines on a stderr that is not a terminal;
#   - bad command lines are refused (status 2), naming the option.
# TAP output; run by make check with VP_TOOLS set to the build folder.
# test_explore_mpi.sh NAME (or VP_TEST_CASE=NAME): the checks on the program
# tests/mpi/NAME.c only.
. "$(cd "$(dirname "$0")" && pwd)/mpi_setup.sh"

build explore_order explore_deadlock explore_iprobe explore_flush explore_unsafe

# a failed job's ranks leave their memory to the process's exit, as a
# killed MPI process does: no leak check there
export ASAN_OPTIONS="${ASAN_OPTIONS:-} detect_leaks=0"

# explores RUNS NP PROG [ARGS...] [-- OPTIONS]: vpmpirun --explore's
# status in $rc, its stderr in $tmp/explore
explores() {
	runs=$1 np=$2
	shift 2
	"$run" --explore "$runs" $opts -np "$np" "$@" >"$tmp/out" \
	    2>"$tmp/explore"
	rc=$?
}
# the summary line, the replay command, the first failure's report line
summary() { grep "^vpmpirun: $1 schedules (" "$tmp/explore"; }
replay_of() { sed -n 's/^vpmpirun: replay it: vpmpirun //p' "$tmp/explore"; }
first_text() {
	s=$(sed -n 's/^vpmpirun: first failure, seed \([0-9]*\):.*/\1/p' \
	    "$tmp/explore")
	sed -n "s/^vpmpirun: seed $s failed ([^)]*): //p" "$tmp/explore"
}

# finds RUNS NP PROG CAUSE: the bug is found within RUNS schedules; the
# replay, run three times, fails the same way each time (the same status
# and the same first line as the explored run's) and its report names
# the cause (CAUSE, a fixed string)
finds() {
	runs=$1 np=$2 prog=$3 cause=$4
	explores "$runs" "$np" "$tmp/$prog"
	sum=$(summary "$runs")
	replay=$(replay_of)
	text=$(first_text)
	[ $rc = 1 ] && [ -n "$sum" ] && [ -n "$replay" ] && [ -n "$text" ] &&
	    ! echo "$sum" | grep -q ": 0 failed;" &&
	    echo "$replay" | grep -q -- "--schedule [0-9]* ${depth_opt}-np $np $tmp/$prog\$"
	check $? "--explore $runs $opts -np $np $prog: found (exit $rc): $(tail -n 4 "$tmp/explore")"
	# the replay: the printed command, run as printed (a program not
	# selected: its check skipped, as the wrapper does for the others)
	keep "$prog" | grep -q . || : >"$tap_skip_mark"
	same=0 k=1 rrcs=
	while [ $k -le 3 ]; do
		eval "\"\$run\" $replay" >/dev/null 2>"$tmp/replay$k"
		rrc=$?
		rrcs="$rrcs $rrc"
		got=$(sed -n '/[^[:space:]]/{p;q;}' "$tmp/replay$k")
		[ $rrc != 0 ] && [ "$got" = "$text" ] &&
		    { [ $k = 1 ] || cmp -s "$tmp/replay1" "$tmp/replay$k"; } &&
		    same=$((same + 1))
		k=$((k + 1))
	done
	[ $same = 3 ] && [ -n "$text" ]
	check $? "$prog: the replay ($replay) fails the same way three times (exit$rrcs): '$got' (explored: '$text')"
	keep "$prog" | grep -q . || : >"$tap_skip_mark"
	grep -q -F -- "$cause" "$tmp/replay1"
	check $? "$prog: the replay's report names the cause ('$cause'): $(head -c 600 "$tmp/replay1")"
}

# passes RUNS NP PROG ARG [ORDERS]: no schedule fails, the match orders
# vary (at least ORDERS of them, 2 unless given: 1 for a program without
# wildcards)
passes() {
	runs=$1 np=$2 prog=$3 arg=$4 least=${5:-2}
	explores "$runs" "$np" "$tmp/$prog" "$arg"
	sum=$(summary "$runs")
	orders=$(echo "$sum" | sed -n 's/.*; \([0-9]*\) distinct wildcard match orders.*/\1/p')
	[ $rc = 0 ] && echo "$sum" | grep -q ": 0 failed;" &&
	    [ "${orders:-0}" -ge "$least" ] && ! grep -q "replay it" "$tmp/explore"
	check $? "--explore $runs $opts -np $np $prog $arg: every schedule passes (exit $rc), $orders match orders: $(tail -n 3 "$tmp/explore")"
}

# the examples: each bug within the stated number of schedules, each
# under uniform choices and PCT of depth 2 (the first failing seeds are
# fixed: an exploration is repeatable); docs/schedules.md states them
order="results come in rank order"
deadlock="rank 0 in MPI_Recv (vp_recv_tag) waits for rank 1: recv into 8-byte buffer, tag 0"
iprobe="1 message was sent but never received: rank 1 -> rank 0"
flush="rank 1's put is at rank 0 once its"
unsafe="rank 0's MPI_Send of 8 bytes to rank 1 waits for a matching receive: the program is unsafe (it relies on MPI buffering the message)"
opts= depth_opt=
finds 5 4 explore_order "$order"
passes 10 4 explore_order fixed
finds 40 3 explore_deadlock "$deadlock"
passes 40 3 explore_deadlock fixed
finds 20 3 explore_iprobe "$iprobe"
# progress: a line every tenth of the runs when stderr is not a terminal
if keep explore_iprobe | grep -q .; then
	grep -q "^vpmpirun: 2/20 schedules, [0-9]* failed$" "$tmp/explore" &&
	    grep -q "^vpmpirun: 18/20 schedules, [0-9]* failed$" "$tmp/explore"
	check $? "progress on a stderr that is not a terminal: a line every 2 of 20 runs: $(head -n 3 "$tmp/explore")"
fi
passes 20 3 explore_iprobe fixed
finds 5 2 explore_flush "$flush"
passes 20 2 explore_flush fixed 1
finds 20 2 explore_unsafe "$unsafe"
passes 20 2 explore_unsafe fixed 1
opts="--schedule-depth 2" depth_opt="--schedule-depth 2 "
finds 10 4 explore_order "$order"
passes 10 4 explore_order fixed
finds 10 3 explore_deadlock "$deadlock"
finds 20 3 explore_iprobe "$iprobe"
finds 10 2 explore_flush "$flush"
finds 10 2 explore_unsafe "$unsafe"
opts= depth_opt=

# --schedule: one run, replayed exactly, and drawn
for k in 1 2; do
	"$run" --schedule 7 -np 4 --svg "$tmp/s$k.svg" "$tmp/explore_order" \
	    fixed >"$tmp/o$k" 2>&1
	echo $? >>"$tmp/o$k"
done
[ -s "$tmp/s1.svg" ] && cmp -s "$tmp/s1.svg" "$tmp/s2.svg" &&
    cmp -s "$tmp/o1" "$tmp/o2" && [ "$(tail -n 1 "$tmp/o1")" = 0 ]
check $? "--schedule 7 --svg twice: the same output and the same diagram: $(head -c 300 "$tmp/o1")"

# --schedule with --explore: the first seed
opts="--schedule 100"
explores 3 4 "$tmp/explore_order" fixed
opts=
grep -q "^vpmpirun: 3 schedules (seeds 100 to 102, uniform choices): 0 failed;" "$tmp/explore"
check $? "--explore 3 --schedule 100: seeds 100 to 102 (exit $rc): $(tail -n 2 "$tmp/explore")"

# a run that never ends is killed after --timeout, and counted
if keep explore_iprobe | grep -q .; then
	t0=$(date +%s)
	opts="--timeout 0.5"
	explores 2 3 "$tmp/explore_iprobe" hang
	opts=
	took=$(($(date +%s) - t0))
	[ $rc = 1 ] && [ $took -lt 30 ] &&
	    grep -q "^vpmpirun: seed 1 failed (timeout: killed after 0.5 s)" "$tmp/explore" &&
	    grep -q "^vpmpirun: 2 schedules (seeds 1 to 2, uniform choices): 2 failed;" "$tmp/explore"
	check $? "--timeout 0.5: a run that never ends is killed and counted (exit $rc, $took s): $(cat "$tmp/explore")"
fi

# strict parsing: status 2 and the option named
refused() { # expected message, then the arguments
	want=$1
	shift
	"$run" "$@" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] && grep -q -- "$want" "$tmp/err"
	check $? "vpmpirun $*: refused (exit $rc): $(head -n 1 "$tmp/err")"
}
p=$tmp/explore_order
refused "--explore '0': the number of runs must be from 1" --explore 0 -np 2 "$p"
refused "--explore 'ten' is not a whole number" --explore ten -np 2 "$p"
refused "--explore needs a value" --explore
refused "--schedule '0': a seed is from 1" --schedule 0 -np 2 "$p"
refused "--schedule '-3' is not a whole number" --schedule -3 -np 2 "$p"
refused "--schedule-depth '2x' is not a whole number" --schedule-depth 2x -np 2 "$p"
refused "--schedule-depth '1048577': the depth must be from 0 to 1048576" --schedule-depth 1048577 -np 2 "$p"
refused "--timeout limits each run of --explore" --timeout 5 -np 2 "$p"
refused "--timeout 'soon' is not a number of seconds" --explore 2 --timeout soon -np 2 "$p"
refused "--timeout '0': it must be more than 0" --explore 2 --timeout 0 -np 2 "$p"
refused "--trace and --svg draw one run" --explore 2 --svg "$tmp/x.svg" -np 2 "$p"
refused "--stats reports one run" --explore 2 --stats -np 2 "$p"

"$run" --help >"$tmp/help"
grep -q -- "--explore RUNS" "$tmp/help" && grep -q -- "--timeout SECONDS" "$tmp/help" &&
    ! grep -q "the usage: the comment" "$tmp/help"
check $? "vpmpirun --help names --explore and --timeout, and ends with the usage: $(tail -n 2 "$tmp/help")"

echo "1..$n"
[ "$fail" = 0 ]
