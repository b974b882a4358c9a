#!/bin/sh
# test_explore_correct.sh - no false alarms: correct programs pass every
# schedule. A failure here is a bug of vp (or a program that relies on
# MPI buffering its sends, which must be fixed, not the schedule):
#   - the tour (vp-run --explore: every collective case, its result
#     checked against the sequential reference) under uniform and PCT
#     schedules;
#   - the applications (vp-run --apps --schedule SEED, each checked
#     against its sequential computation) under both;
#   - MPI programs (tests/mpi/*.c, a representative set; all of them in the
#     longer run) on 4 ranks under both: each seed's output is the
#     program's expected output, exactly.
# VP_EXPLORE_SEEDS=N runs N seeds of each strategy (default 2; the tour
# takes half of them, at least 1) and every MPI program: `make
# check-explore` runs 25. TAP output; run by make check with VP_TOOLS set
# to the build folder.
. "$(cd "$(dirname "$0")" && pwd)/mpi_setup.sh"

vprun="$tools/vp-run"
seeds=${VP_EXPLORE_SEEDS:-2}
tour=$(((seeds + 1) / 2))

# the tour: every case under TOUR seeds of each strategy
for depth in 0 2; do
	"$vprun" --explore $tour --schedule-depth $depth --reps 0 \
	    >"$tmp/tour" 2>&1
	rc=$?
	[ $rc = 0 ] && grep -q "^[0-9]* cases, each under $tour schedules*: 0 failed" "$tmp/tour"
	check $? "vp-run --explore $tour --schedule-depth $depth: every case of the tour passes every schedule (exit $rc): $(grep -i "failed" "$tmp/tour" | head -n 5)"
done

# the applications, seed by seed
for depth in 0 2; do
	bad=
	s=1
	while [ $s -le "$seeds" ]; do
		"$vprun" --apps --schedule $s --schedule-depth $depth \
		    >"$tmp/apps" 2>&1 &&
		    grep -q "^[0-9]* runs, 0 failed" "$tmp/apps" ||
		    bad="$bad seed $s: $(grep FAILED "$tmp/apps" | head -n 3)"
		s=$((s + 1))
	done
	[ -z "$bad" ]
	check $? "vp-run --apps --schedule 1..$seeds --schedule-depth $depth: every application right under every schedule$bad"
done

if [ -n "${VP_EXPLORE_SEEDS:-}" ]; then
	progs=$(for f in "$here"/mpi/*.c; do
		p=${f##*/}
		p=${p%.c}
		[ -n "$(says $p run-by)" ] || echo $p
	done)
else
	progs="p2p collectives datatypes icollectives matched_probe onesided \
rma_lock safe_exchange vcollectives win_pscw"
fi
progs=$(keep $progs)
build $progs
for p in $progs; do
	want=$(expected $p 4) || {
		notok "$p: no expected output on 4 ranks"
		continue
	}
	bad=
	for depth in 0 2; do
		s=1
		while [ $s -le "$seeds" ]; do
			got=$("$run" --schedule $s --schedule-depth $depth \
			    -np 4 "$tmp/$p" 2>"$tmp/err")
			rc=$?
			[ $rc = 0 ] && [ "$got" = "$want" ] ||
			    bad="$bad; seed $s depth $depth: exit $rc: $got $(head -c 300 "$tmp/err")"
			s=$((s + 1))
		done
	done
	[ -z "$bad" ]
	check $? "$p on 4 ranks: the expected output under seeds 1..$seeds of both strategies$bad"
done

echo "1..$n"
[ "$fail" = 0 ]
