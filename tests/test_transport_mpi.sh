#!/bin/sh
# test_transport_mpi.sh - the mpi transport (make check MPI=1): vp's ranks
# as the processes of an mpirun job.
#   - tests/transport/suite.c (point to point with tags, requests, probe
#     and a synchronous send; a wildcard receive; every collective at two
#     sizes; comm_split and comm_create_group; synchronous isends; a
#     reproducible sum, bit for bit; receives that reduce, short and long,
#     into a separate result and in place; on ring, full, hypercube and mesh or
#     torus) runs
#     under mpirun -np P for P = 1, 2, 4, 8, 9, and as P threads: every
#     case's result, model time, congested time, messages, bytes and link
#     load are identical, and so are the reports of the wrong programs (a
#     collective with different roots, one with a different count on one
#     rank, named from the sender's record that its process sends on
#     request, a receive-receive deadlock across
#     processes found by termination detection, a message never received,
#     a rank's vp_abort); passive target across processes (locks,
#     flushes, the atomics) with the model times of threads, exclusive
#     locks that exclude, and a lock never granted reported as a
#     deadlock;
#   - a topology whose p is not the job's size is refused naming both;
#   - a rank stuck outside vp under VP_WATCHDOG ends the job, named;
#   - vp-run under mpirun: the book's model time, printed once;
#   - vp-bench --transport mpi: every row, and (Open MPI) every row with
#     the library made to run vp's algorithm; the limits of the ping-pong
#     and the barrier probed.
# TAP output; VP_TOOLS is the MPI build's folder, MPIRUN the launcher.
tools=${VP_TOOLS:-build-mpi}
suite="$tools/tests/transport_suite"
mpirun=${MPIRUN:-mpirun}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

# Open MPI runs more processes than cores only when asked, and as root
# only when told it may.
flags=
if "$mpirun" --version 2>&1 | grep -q "Open MPI"; then
	flags=--oversubscribe
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
job() { # job NP program args...
	np=$1
	shift
	VP_TRANSPORT=mpi timeout 300 "$mpirun" $flags -np "$np" "$@"
}

for p in 1 2 4 8 9; do
	VP_TRANSPORT=threads timeout 300 "$suite" $p >"$tmp/threads.$p" 2>&1
	rc=$?
	job $p "$suite" $p >"$tmp/mpi.$p" 2>"$tmp/mpi.$p.err"
	mrc=$?
	cases=$(grep -Ec '^[a-z]+:[0-9x]+ ' "$tmp/mpi.$p")
	good=$(grep -c ' rc=0 ' "$tmp/mpi.$p")
	if [ $rc = 0 ] && [ $mrc = 0 ] && [ "$cases" -gt 20 ]; then
		ok "mpirun -np $p: $cases cases ran ($good succeed as they must)"
	else
		notok "mpirun -np $p: exit $mrc (threads $rc), $cases cases"
		tail -n 5 "$tmp/mpi.$p.err" | sed 's/^/#   /'
	fi
	if cmp -s "$tmp/threads.$p" "$tmp/mpi.$p"; then
		ok "mpirun -np $p: every result, model time and report is the threads transport's"
	else
		notok "mpirun -np $p: differs from the threads transport"
		diff "$tmp/threads.$p" "$tmp/mpi.$p" | head -n 20 | sed 's/^/#   /'
	fi
	# the normal cases succeed; only the wrong programs fail
	bad=$(grep -E '^[a-z]+:[0-9x]+ ' "$tmp/mpi.$p" | grep -v ' rc=0 ' |
		grep -Evc ' (wrong-root|wrong-count|recv-recv|unreceived|abort|window-outside|reduce-short) ')
	if [ "$bad" = 0 ]; then
		ok "mpirun -np $p: every correct case succeeded"
	else
		notok "mpirun -np $p: $bad correct cases failed"
		grep -A2 -v ' rc=0 ' "$tmp/mpi.$p" | head -n 10 | sed 's/^/#   /'
	fi
done

# what the wrong programs get, across processes (from the -np 4 run)
expect() { # expect FILE TEXT WHAT
	if grep -qF -- "$2" "$1"; then ok "$3"; else
		notok "$3: no '$2'"
		sed 's/^/#   /' "$1" | tail -n 20
	fi
}
expect "$tmp/mpi.4" "rank 1: vp_bcast: root 1 here but root 0 on rank 0" \
	"different roots: VP_EMISMATCH naming both ranks and the root"
expect "$tmp/mpi.4" "rank 1: vp_bcast: count 2 here but 1 on rank 0 (call 0" \
	"a different count: VP_EMISMATCH naming the count from the sender's record"
expect "$tmp/mpi.4" "cycle: 0 -> 1 -> 0" \
	"a receive-receive deadlock across processes: the wait-for cycle"
expect "$tmp/mpi.4" "rank 0 in vp_recv_tag waits for rank 1: recv into 4-byte buffer, tag 4" \
	"the deadlock report says what each process waits for"
expect "$tmp/mpi.4" "rank 1 -> rank 0: 1 message (point-to-point)" \
	"a message never received is named, with its pair"
expect "$tmp/mpi.4" "rank 1: solver: residual 2.5 too large" \
	"vp_abort on one process fails every process with its message"
expect "$tmp/mpi.4" "reduce-short: rc=-4, the result untouched" \
	"a reduction sent one element short: VP_ETRUNC, the result untouched"
expect "$tmp/mpi.4" "message of 47992 bytes from rank 1 for a reduction of 48000 bytes" \
	"... and the report names both lengths"

# passive target across processes (the MPI library's own RMA): the
# compared "passive" case above ran on every process count; a lock never
# granted is a deadlock found without a timeout, and named
for p in 1 4 9; do
	if grep -Eq '^ring:[0-9]+ +passive +rc=0 ' "$tmp/mpi.$p" &&
		grep -Eq '^ring:[0-9]+ +atomics +rc=0 ' "$tmp/mpi.$p" &&
		grep -Eq '^ring:[0-9]+ +dynamic +rc=0 ' "$tmp/mpi.$p" &&
		grep -Eq '^ring:[0-9]+ +lock-count +rc=0 ' "$tmp/mpi.$p"; then
		ok "mpirun -np $p: locks, flushes, fetch-and-op, compare-and-swap and get-accumulate across processes, the target calling nothing, on a dynamic window too; exclusive locks exclude"
	else
		notok "mpirun -np $p: passive target across processes"
		grep -E ' (passive|atomics|dynamic|lock-count) ' "$tmp/mpi.$p" | sed 's/^/#   /'
	fi
done
job 3 "$suite" 3 lock-deadlock >"$tmp/lockdl" 2>&1
expect "$tmp/lockdl" "rank 1 in vp_win_lock waits for rank 0: an exclusive lock on target 0, held exclusive by rank 0" \
	"a lock never granted across processes: a deadlock, named with the lock's holder"
expect "$tmp/lockdl" "cycle: 0 -> 1 -> 0" \
	"... and the wait-for cycle through the lock"

# a rank blocked in its own code (pause()) with VP_WATCHDOG=1: its process
# ends with the watchdog's report, and the job with a non-zero status
start=$(date +%s)
VP_WATCHDOG=1 job 2 "$suite" 2 stuck >"$tmp/stuck" 2>&1
src=$?
took=$(($(date +%s) - start))
if [ $src != 0 ] && [ $took -lt 60 ] &&
	grep -q "watchdog: rank 1 moved no message for" "$tmp/stuck" &&
	grep -q "its last vp call: vp_send" "$tmp/stuck"; then
	ok "a rank stuck outside vp with VP_WATCHDOG=1 ends the job (exit $src, ${took} s), naming it and its last call"
else
	notok "the watchdog on a stuck rank: exit $src after ${took} s"
	tail -n 20 "$tmp/stuck" | sed 's/^/#   /'
fi

job 2 "$suite" 4 p2p >"$tmp/mismatch" 2>&1
expect "$tmp/mismatch" "the topology has p = 4 but the MPI job has 2 processes" \
	"p = 4 under mpirun -np 2 is refused naming both"

job 8 "$tools/vp-run" --topology hypercube:3 --collective bcast \
	--bytes 1024 --ts 100 --tw 1 >"$tmp/vprun" 2>&1
rows=$(grep -c '^hypercube:3 ' "$tmp/vprun")
if [ "$rows" = 1 ] && grep -q ' 3372.0 ' "$tmp/vprun"; then
	ok "vp-run under mpirun -np 8: hypercube bcast costs 3372.0, one row"
else
	notok "vp-run under mpirun -np 8: $rows rows"
	sed 's/^/#   /' "$tmp/vprun" | head -n 20
fi

# vp-bench --transport mpi: every collective row timed on both sides and,
# with Open MPI, also with the library made to run vp's algorithm (the
# bench sets coll_tuned_use_dynamic_rules itself and forces each row
# through MPI_T); MPICH is not mapped and prints "-" there
job 2 "$tools/vp-bench" --transport mpi --quick >"$tmp/bench" 2>&1
brc=$?
colls='^  (barrier|bcast|reduce|allreduce|allgather|alltoall) '
rows=$(grep -Ec "$colls" "$tmp/bench")
forced=$(grep -E "$colls" "$tmp/bench" | awk '$6 ~ /^[0-9.]+$/' | wc -l)
want=0
if "$mpirun" --version 2>&1 | grep -q "Open MPI"; then want=$rows; fi
# the limits probed in the same run: MPI's own ping-pong of 12 bytes and
# of the bytes vp sends for 8
limit=$(grep -Ec "limit: MPI's own ping-pong of 12 B takes [0-9.]+ us.* of 56 B .* [0-9.]+ us" "$tmp/bench")
# and the barrier's bare MPI pattern beside the barrier row
limit=$((limit + $(grep -Ec "probe: the transport's MPI pattern alone as this barrier .*: [0-9.]+ us; vp [0-9.]+x it" "$tmp/bench")))
if [ $brc = 0 ] && [ "$rows" = 21 ] && [ "$forced" = "$want" ] && [ "$limit" = 2 ]; then
	ok "vp-bench --transport mpi under mpirun -np 2: 21 collective rows, $forced with the library running vp's algorithm, the limits of the ping-pong and the barrier probed"
else
	notok "vp-bench --transport mpi: exit $brc, $rows rows, $forced forced (want $want), $limit limit lines (want 2)"
	sed 's/^/#   /' "$tmp/bench" | head -n 30
fi

echo "1..$n"
[ $fail = 0 ]
