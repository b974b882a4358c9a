#!/bin/sh
# test_schedule_model.sh - the model clock does not depend on the
# schedule: what vp reports of model time is the same, to the last bit,
# under every seed and in the free run:
#   - the tour (vp-run --json --reps 0: every case's model_time,
#     model_time_congested, formula time, link load and messages, printed
#     with every digit) under uniform and PCT seeds;
#   - MPI programs (tests/mpi: point to point, collectives, one-sided with
#     fences) under an alpha-beta model on a ring: vpmpirun --stats'
#     messages, bytes, model time and link load.
# Left out: a program whose locks are contended (rma_lock.c: which origin
# gets a lock first is the program's own race) and one that completes
# receives in an order the run picks (icollectives.c's MPI_Waitany
# between a barrier and a receive: a receive port is charged in the
# order the rank completes its receives). Their model times differ from
# one free run to the next as well.
# TAP output; run by make check with VP_TOOLS set to the build folder.
. "$(cd "$(dirname "$0")" && pwd)/mpi_setup.sh"

vprun="$tools/vp-run"

# tour FILE [OPTIONS]: the tour's JSON lines without their wall times
tour() {
	f=$1
	shift
	"$vprun" --json --reps 0 "$@" 2>&1 | sed 's/"wall_us":[^,]*,//' >"$f"
}
free="$tmp/tour"
tour "$free"
grep -q '"model_time":[1-9]' "$free" && [ "$(wc -l <"$free")" -ge 20 ]
check $? "vp-run --json --reps 0: the tour's model times: $(head -c 300 "$free")"
k=0
for seed in "--schedule 1" "--schedule 2" "--schedule 3 --schedule-depth 2"; do
	k=$((k + 1))
	tour "$tmp/tour$k" $seed
	cmp -s "$free" "$tmp/tour$k"
	check $? "vp-run --json --reps 0 $seed: every case's model figures are the free run's, bit for bit: $(diff "$free" "$tmp/tour$k" | head -n 4)"
done

progs=$(keep p2p collectives onesided)
build $progs
# the --stats line without its wall time
stats() {
	"$run" --stats --topology ring:4 --model ts=10,tw=0.5 "$@" \
	    2>&1 >/dev/null | sed -n 's/, [0-9.]* s$//; /^vpmpi: 4 ranks/p'
}
for p in $progs; do
	want=$(stats -np 4 "$tmp/$p")
	bad=
	for seed in "--schedule 1" "--schedule 2" "--schedule 3" \
	    "--schedule 4 --schedule-depth 2" "--schedule 5 --schedule-depth 3"; do
		got=$(stats $seed -np 4 "$tmp/$p")
		[ "$got" = "$want" ] || bad="$bad; $seed: $got"
	done
	echo "$want" | grep -q "model time [1-9]" && [ -z "$bad" ]
	check $? "$p on ring:4: the model figures under five seeds are the free run's ($want)$bad"
done

echo "1..$n"
[ "$fail" = 0 ]
