#!/bin/sh
# test_mpi_cases.sh - what MPI programs on vp get when they end badly or
# are run with bad settings, and the launcher's options:
#   - MPI_Abort(MPI_COMM_WORLD, 3) ends the job with status 3, the other
#     ranks go no further; an operation the subset cannot do exactly fails
#     the job naming it; a deadlock is reported with its cycle (a real MPI
#     would hang), an MPI_Ssend deadlock too;
#   - MPI_ERRORS_ABORT on a duplicate communicator ends the job as
#     MPI_Abort with the error's class (errors_abort.c);
#   - --topology and --stats: the run's figures and the algorithms used;
#     a neighbourhood collective charged alike blocking, nonblocking and
#     persistent (neighbor_cost.c);
#     VP_ALG_* variables; VP_REPRODUCIBLE's exact sums;
#   - per-rank globals (and --shared-globals), stdin to rank 0 only,
#     exit() semantics; getopt as glibc's on 20 command lines
#     (getopt_cases.c); strtok on argv; a program's own shared library
#     refused unless --shared-globals (own_library.c);
#   - each rank's stack is the process's (a 1 MiB array fits), and
#     --stack-size 64K makes it overflow, named; a rank's abort() or
#     SIGSEGV ends the job with Open MPI's mpirun's status (128 + the
#     signal) naming the rank; MPI_Abort(..., 256) never exits 0; atexit
#     handlers run; a process forked by a rank ends with its own exit()
#     (crash.c);
#   - wrong programs (wrong.c: truncation, a message of MPI_INT received as
#     MPI_FLOAT, collective mismatches and type signatures, a message never
#     received, MPI calls before MPI_Init or after MPI_Finalize, a rank
#     ending without MPI_Finalize, MPI_Cancel on a nonblocking collective's
#     request, a request twice in one Waitall, a stale request, fences
#     against barriers and frees, an operation outside its start group, a
#     start nobody posts for) fail naming the MPI call, vp's call under
#     it, the ranks and the MPI error class;
#   - settings that are not values they can take are refused, naming them;
#   - a deterministic schedule (VP_SCHEDULE=42) gives a program whose
#     output follows the interleaving the same stdout twice
#     (schedule_order.c).
# TAP output; run by make check with VP_TOOLS set to the build folder.
# test_mpi_cases.sh NAME (or VP_TEST_CASE=NAME): the checks on the program
# tests/mpi/NAME.c only, the others reported "# SKIP not selected".
. "$(cd "$(dirname "$0")" && pwd)/mpi_setup.sh"

build ring collectives cart_groups globals per_rank_libc getopt_cases abort errors_abort undefined_op deadlock exit_stdin ssend_deadlock wrong exact_sum crash schedule_order neighbor_cost
build_ref getopt_cases

# a failed job's ranks stop where they failed and leave their memory to
# the process's exit, as a killed MPI process does: no leak check there
export ASAN_OPTIONS="${ASAN_OPTIONS:-} detect_leaks=0"
"$run" -np 4 "$tmp/abort" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 3 ] && grep -q "MPI_Abort(3)" "$tmp/err" &&
	! grep -q "not reached" "$tmp/out"
check $? "MPI_Abort(MPI_COMM_WORLD, 3): exit status $rc, no rank goes on: $(cat "$tmp/err")"

# MPI_ERRORS_ABORT on a duplicate ends the job as MPI_Abort with the
# error's class (MPI_ERR_RANK, 6), or the code given to
# MPI_Comm_call_errhandler
"$run" -np 4 "$tmp/errors_abort" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 6 ] && grep -q "rank 1: MPI_Send: destination 99 is outside .*MPI_ERRORS_ABORT: the job ends as MPI_Abort(6)" "$tmp/err" &&
	grep -q "handler of the duplicate: MPI_ERRORS_ABORT" "$tmp/out" &&
	! grep -q "not reached" "$tmp/out"
check $? "MPI_ERRORS_ABORT: MPI_Send to rank 99 ends the job, exit status $rc: $(cat "$tmp/err")"
"$run" -np 3 "$tmp/errors_abort" call >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 5 ] && grep -q "rank 1: MPI_Comm_call_errhandler: error code 5 (MPI_ERRORS_ABORT" "$tmp/err" &&
	! grep -q "not reached" "$tmp/out"
check $? "MPI_ERRORS_ABORT: MPI_Comm_call_errhandler(dup, 5), exit status $rc: $(cat "$tmp/err")"

"$run" -np 2 "$tmp/undefined_op" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "MPI_Allreduce: MPI_MAXLOC is not defined on MPI_INT" "$tmp/err"
check $? "MPI_MAXLOC on MPI_INT fails the job naming both (exit $rc): $(cat "$tmp/err")"

timeout 60 "$run" -np 3 "$tmp/deadlock" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "deadlock" "$tmp/err" && grep -q "cycle: 0 -> 1 -> 0" "$tmp/err"
check $? "a receive-receive deadlock is reported with its cycle (exit $rc): $(tr '\n' ' ' <"$tmp/err" | head -c 400)"

"$run" -np 8 --topology hypercube:3 --model ts=1,tw=0.01 --stats \
    "$tmp/collectives" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && grep -q "vpmpi: 8 ranks on hypercube:3" "$tmp/err" &&
	grep -q "allreduce" "$tmp/err" && ! grep -q "model time 0," "$tmp/err"
check $? "--topology hypercube:3 --model --stats: $(tr '\n' ' ' <"$tmp/err" | head -c 500)"

# a neighbourhood collective costs the same blocking, nonblocking and
# persistent: 8 ranks, 4 neighbours each, 32 bytes a block
nb_stats() {
	"$run" -np 8 --model ts=1,tw=0.01 --stats "$tmp/neighbor_cost" "$1" \
	    2>&1 >/dev/null | sed -n 's/^\(vpmpi: 8 ranks.*model time [^,]*\),.*/\1/p'
}
nb_b=$(nb_stats blocking)
nb_i=$(nb_stats nonblocking)
nb_p=$(nb_stats persistent)
case $nb_b in *" 1024 bytes, model time "*) [ "$nb_i" = "$nb_b" ] && [ "$nb_p" = "$nb_b" ] ;; *) false ;; esac
check $? "MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall and MPI_Neighbor_alltoall_init charged alike: $nb_b / $nb_i / $nb_p"

# globals: one copy per rank by default, shared on request (then the
# program's ranks race on its globals, which is the point: ThreadSanitizer
# is told not to report that race of the program's own)
got=$(TSAN_OPTIONS="${TSAN_OPTIONS:-} report_bugs=0" \
    "$run" -np 4 --shared-globals "$tmp/globals" 2>/dev/null)
[ "$got" = "globals on 4 ranks: shared between ranks" ]
check $? "--shared-globals: one copy of the program for all ranks: $got"

# getopt, getopt_long and getopt_long_only as glibc's: the hash of their
# trace on 20 command lines (glibc's, which Open MPI's processes use)
got=$("$run" -np 4 "$tmp/getopt_cases" 2>"$tmp/err")
[ "$got" = "getopt on 4 ranks: 20 cases, trace 68bfd4eeb9ac91d1, the same on every rank" ]
check $? "getopt on 20 command lines as glibc's, on 4 ranks at once: $got $(head -c 300 "$tmp/err")"
if has_ref getopt_cases; then
	ref=$(mpirun_ref 4 "$tmp/getopt_cases.ompi")
	[ "$ref" = "$got" ]
	check $? "getopt_cases: the same output as Open MPI's ($ref)"
fi

# argv's strings are each rank's: strtok on argv[1] cuts the rank's copy
got=$("$run" -np 4 "$tmp/per_rank_libc" 3:67 2>"$tmp/err")
case $got in "per-rank libc on 4 ranks: ok (0 bad)"*) rc=0 ;; *) rc=1 ;; esac
check $rc "strtok on argv[1] by every rank at once: $got $(head -c 300 "$tmp/err")"

# a program's own shared library would be one copy for all ranks: the
# job is refused naming it, unless one copy of everything is asked for
# (one rank, --shared-globals); Open MPI's processes have one copy each
cc -shared -fPIC -O2 "$here/mpi/own_library_lib.c" -o "$tmp/libownlib.so" &&
	"$cc" -O2 -Wall -Werror "$here/mpi/own_library.c" -L"$tmp" -lownlib \
	    -Wl,-rpath,"$tmp" -o "$tmp/own_library" 2>"$tmp/err"
check $? "vpmpicc links tests/mpi/own_library.c with its libownlib.so: $(cat "$tmp/err")"
got=$("$run" -np 4 "$tmp/own_library" 2>"$tmp/err")
rc=$?
[ $rc = 1 ] && [ -z "$got" ] &&
	grep -q "the program needs the shared library $tmp/libownlib.so, whose global variables its 4 ranks would share" "$tmp/err"
check $? "a program's own shared library is refused at start, named (exit $rc): $got $(cat "$tmp/err")"
got=$("$run" -np 1 "$tmp/own_library" 2>"$tmp/err")
[ "$got" = "own library on 1 ranks: one copy per rank" ]
check $? "... on one rank it runs: $got $(cat "$tmp/err")"
got=$(TSAN_OPTIONS="${TSAN_OPTIONS:-} report_bugs=0" \
    "$run" -np 4 --shared-globals "$tmp/own_library" 2>"$tmp/err")
[ "$got" = "own library on 4 ranks: shared between ranks" ]
check $? "... and under --shared-globals, shared on purpose: $got $(cat "$tmp/err")"

# only rank 0 reads stdin; exit(0) ends a rank, exit(5) the job
got=$(echo 42 | "$run" -np 4 "$tmp/exit_stdin" 2>"$tmp/err")
rc=$?
[ $rc = 0 ] && [ "$got" = "stdin: rank 0 read 42; 1 of 4 ranks read a number" ]
check $? "stdin to rank 0 only, exit(0) ends the rank (exit $rc): $got $(cat "$tmp/err")"
echo 42 | "$run" -np 4 "$tmp/exit_stdin" x >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 5 ] && grep -q "rank 3 called exit(5)" "$tmp/err"
check $? "exit(5) on a rank ends the job with status 5 (exit $rc): $(cat "$tmp/err")"

# synchronous sends: head to head, a deadlock reported with its cycle
timeout 60 "$run" -np 3 "$tmp/ssend_deadlock" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "rank 0 in MPI_Ssend (vp_ssend_tag) waits for rank 1" "$tmp/err" &&
	grep -q "cycle: 0 -> 1 -> 0" "$tmp/err" &&
	grep -q "MPI error class 16 (other error); vp: deadlock" "$tmp/err"
check $? "MPI_Ssend head to head is a deadlock, reported naming MPI_Ssend (exit $rc): $(tr '\n' ' ' <"$tmp/err" | head -c 400)"

# wrong programs fail, naming the MPI call, the ranks and the MPI class
wrong() { # mistake, then what stderr must hold (two or three strings)
	"$run" -np 4 "$tmp/wrong" "$1" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc = 1 ] && grep -qF "$2" "$tmp/err" && grep -qF "$3" "$tmp/err" &&
	    grep -qF "${4:-$3}" "$tmp/err"
	check $? "wrong program ($1) fails (exit $rc): $(tr '\n' ' ' <"$tmp/err" | head -c 400)"
}
wrong truncate "rank 1: MPI_Recv (vp_recv_tag): message of 16 bytes from rank 0 does not fit the 4-byte receive buffer" \
	"MPI error class 15 (message truncated)"
wrong root "here but root " \
	"MPI error class 16"
wrong count "MPI_Allreduce (vp_allreduce): count " \
	"(call 0 on this communicator)"
wrong op "MPI_Allreduce (vp_allreduce): op VP_" \
	"(call 0 on this communicator)"
wrong unreceived "rank 0 -> rank 1: 1 message (point-to-point)" \
	"messages were sent but never received"
wrong types "rank 1: MPI_Recv (vp_recv_tag): the message from rank 0 (tag 3) holds 4-byte integer elements but the receive expects 4-byte float elements" \
	"MPI error class 3 (invalid or unsupported datatype)"
wrong noinit "MPI_Comm_rank: called before MPI_Init" "MPI error class"
wrong nofinalize "rank 2: main: the rank ended without calling MPI_Finalize" \
	"MPI error class"
wrong after "MPI_Comm_rank: called after MPI_Finalize" "MPI error class"
wrong restart "MPI_Start: the request is active: it was started and has not completed" \
	"MPI error class 7"
wrong attr "MPI_Comm_set_attr: keyval 1073741823 is predefined: its attribute is read-only" \
	"MPI error class 48 (invalid keyval)"
wrong notopo "MPI_Neighbor_allgather: communicator 1 has no topology" \
	"MPI error class 11"
wrong nbrequest ": MPI_Ineighbor_allgather: the request pointer is NULL" \
	"MPI error class 7"
wrong nbinittopo "MPI_Neighbor_alltoall_init: communicator 1 has no topology" \
	"MPI error class 11"
wrong nbcount "MPI_Ineighbor_allgather_c: sendcount 4294967296 is above INT_MAX" \
	"MPI error class 2"
wrong nbsize "rank 1: MPI_Ineighbor_alltoall: neighbour 0 sent 4 bytes, the receive block holds 8" \
	"MPI error class 15"
wrong nbstuck "deadlock" "rank 1 in MPI_Neighbor_alltoall (vp_waitall) waits for" \
	"rank 0 in MPI_Recv"
wrong partitions "rank 1: MPI_Precv_init's request: rank 0 sends 2 partitions of 8 bytes (16 in all), this receive takes 2 of 4 (8): the totals differ" \
	"MPI error class 15 (message truncated)"
wrong winbounds "rank 0: MPI_Put (vp_put): bytes [12, 12 + 8) are outside target 1's window of 16 bytes" \
	"MPI error class 13"
wrong cancelcoll "MPI_Cancel: a nonblocking collective's request cannot be cancelled" \
	"MPI error class 7 (invalid request)"
wrong uncommitted "rank 0: MPI_Send: datatype 64 is not committed (MPI_Type_commit)" \
	"MPI error class 3"
wrong badrank "rank 3: MPI_Send: destination 4 is outside [0, 4)" \
	"MPI error class 6"
wrong badtag "rank 1: MPI_Recv: tag -3 is outside [0, MPI_TAG_UB" \
	"MPI error class 4"
wrong freedcomm "rank 2: MPI_Send: communicator handle 3 is not a live communicator" \
	"MPI error class 5"
for name in Waitall Testall Waitany Waitsome; do
	call=$(echo "$name" | tr A-Z a-z)
	wrong twice-$call "rank 1: MPI_$name: requests 1 and 3 are the same request" \
		"MPI error class 7 (invalid request)"
done
wrong stale "rank 1: MPI_Wait: request 0 already completed" \
	"MPI error class 7 (invalid request)"
# either rank may see the mismatch first
wrong fencebarrier " here but vp_" "vp_win_fence" "vp_barrier"
wrong fencefree " here but vp_win_f" "vp_win_free" "MPI error class 16"
wrong fenceswap "MPI_Win_fence (vp_win_fence): window " \
	"(windows numbered in the order made on the communicator)"
wrong pscwgroup "rank 0: MPI_Put: target 2 is not in the group of MPI_Win_start (1 rank)" \
	"MPI error class 50"
wrong pscwstuck "deadlock" "rank 0 in MPI_Win_start (vp_win_start) waits for rank 1" \
	"cycle: 0 -> 1 -> 2 -> 3 -> 0"
# the deadlock is the cause: the count of collective calls (the others'
# MPI_Finalize) follows it as a note
wrong recvfinal "vp: deadlock: all 4 live ranks are blocked" \
	"rank 0 in MPI_Recv (vp_recv_tag) waits for a receive from any rank" \
	"note, at the deadlock: rank 0 made 0 collective calls"

# settings that are not values they can take stop the job before it runs,
# in one line naming the setting and its text; -np and --topology agree
refused() { # what stderr must hold, then the vpmpirun command line
	want=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	    grep -qF -- "$want" "$tmp/err" && [ ! -s "$tmp/out" ]
	check $? "refused (exit $rc): $*: $(tr '\n' ' ' <"$tmp/err" | head -c 300)"
}
refused "--topology ring:4 has 4 ranks but -np is 8" \
	"$run" -np 8 --topology ring:4 "$tmp/ring"
refused "--topology hypercube:3 has 8 ranks but -np is 2" \
	"$run" -np 2 --topology hypercube:3 "$tmp/ring"
refused "vpmpirun --model ts=abc: not a number" \
	"$run" -np 2 --model ts=abc "$tmp/ring"
refused "vpmpirun --model tw=-1: out of range" \
	"$run" -np 2 --model tw=-1 "$tmp/ring"
refused "VP_FIBERS=yes: not a number" \
	env VP_FIBERS=yes "$run" -np 2 "$tmp/ring"
refused "VPMPI_STATS=on: not a number" \
	env VPMPI_STATS=on "$run" -np 2 "$tmp/ring"
# a job whose copies of the program cannot all be mapped is refused up
# front naming vm.max_map_count and --shared-globals (where the limit is
# one that 70000 copies exceed; a larger one would let them load)
maps=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 0)
if [ "$maps" -gt 0 ] && [ "$maps" -lt 300000 ]; then
	"$run" -np 70000 "$tmp/ring" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	    grep -qF "and vm.max_map_count is $maps: raise it" "$tmp/err" &&
	    grep -qF -- "--shared-globals" "$tmp/err" && [ ! -s "$tmp/out" ]
	check $? "-np 70000 names vm.max_map_count and --shared-globals (exit $rc): $(head -c 300 "$tmp/err")"
else
	ok "# SKIP -np 70000: vm.max_map_count is $maps"
fi
"$run" --topology ring:4 "$tmp/ring" >"$tmp/out" 2>"$tmp/err"
check $? "--topology ring:4 without -np runs 4 ranks: $(tr '\n' ' ' <"$tmp/err" | head -c 300)"
for v in "VP_REPRODUCIBLE=yes" "VP_WATCHDOG=abc"; do
	env "$v" "$run" -np 2 "$tmp/ring" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc != 0 ] && grep -qF "$v:" "$tmp/err"
	check $? "$v fails the job naming it (exit $rc): $(tr '\n' ' ' <"$tmp/err" | head -c 300)"
done
# any rank but the root may see the mismatch first
wrong signature ": MPI_Bcast (vp_bcast): the type signatures differ: 8-byte integer elements here but 4-byte integer elements on rank 0" \
	"MPI error class 16"
wrong blockkind "MPI_Allgather: the send block holds 4-byte integer elements, the receive block 4-byte float elements" \
	"MPI error class 3"
wrong selfrank "rank 0: MPI_Send: destination 1 is outside [0, 1)" \
	"MPI error class 6"
wrong overlap "MPI_Comm_create (vp_comm_create): ranks 0 and 2 passed groups that overlap but differ (2 and 3 ranks, both with lowest rank 0)" \
	"MPI error class 16"
# either side may see it first: rank 0 (its dup) or another (its barrier)
wrong dupbarrier "MPI_Barrier (vp_barrier): " "vp_comm_dup" \
	"MPI error class 16"

# a Cartesian grid on the run's topology: placed by Gray codes when the
# program lets MPI reorder, reported by --stats either way
"$run" -np 8 --topology hypercube:3 --stats "$tmp/cart_groups" reorder \
    >"$tmp/out" 2>"$tmp/err"
grep -q "ok (0 bad)" "$tmp/out" &&
	grep -q "grid neighbour pairs are links of hypercube:3 (Gray-code embedding" "$tmp/err"
check $? "MPI_Cart_create 4x2 periodic with reorder on hypercube:3: every grid neighbour is a link: $(grep Cart "$tmp/err")"
"$run" -np 8 --topology hypercube:3 --stats "$tmp/cart_groups" \
    >"$tmp/out" 2>"$tmp/err"
grep -q "ok (0 bad)" "$tmp/out" && grep -q "are not links of hypercube:3" "$tmp/err"
check $? "without reorder the row-major grid is not: $(grep Cart "$tmp/err")"

# VP_ALG_<COLLECTIVE> forces vp's algorithm; an unknown name is refused
VP_ALG_ALLREDUCE=ring "$run" -np 4 --stats "$tmp/collectives" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && grep -q "allreduce ring" "$tmp/err"
check $? "VP_ALG_ALLREDUCE=ring runs the ring allreduce: $(grep allreduce "$tmp/err" | head -2 | tr '\n' ' ')"
VP_ALG_BCAST=nonsense "$run" -np 4 "$tmp/collectives" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "VP_ALG_BCAST=nonsense is not an algorithm" "$tmp/err"
check $? "an unknown VP_ALG_BCAST is refused (exit $rc): $(cat "$tmp/err")"

# VP_REPRODUCIBLE=1: MPI's double sums are the exact sums correctly
# rounded, whatever the algorithm (2^60 - 2^60 + the p - 2 ones)
for alg in binomial ring recursive_doubling rabenseifner; do
	for np in 3 8; do
		got=$(VP_REPRODUCIBLE=1 VP_ALG_ALLREDUCE=$alg VP_ALG_REDUCE=binomial \
		    VP_ALG_SCAN=linear "$run" -np $np "$tmp/exact_sum" 2>"$tmp/err")
		exact=$((np - 2))
		[ "$got" = "sums on $np ranks: allreduce $exact reduce $exact scan $exact" ]
		check $? "VP_REPRODUCIBLE=1, allreduce $alg, $np ranks: $got $(head -c 300 "$tmp/err")"
	done
done

VP_ALG_BCAST=hypercube "$run" -np 3 "$tmp/collectives" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "algorithm 'hypercube' cannot run on 3 ranks" "$tmp/err"
check $? "VP_ALG_BCAST=hypercube on 3 ranks fails the job with vp's reason (exit $rc): $(cat "$tmp/err")"

# stacks: the process's by default, as an MPI process has
got=$("$run" -np 4 "$tmp/crash" big 2>"$tmp/err")
rc=$?
[ $rc = 0 ] && [ "$got" = "big stack: 4 ranks, 1 MiB each on the stack, sum 6291456" ]
check $? "a 1 MiB array on every rank's stack (ulimit -s) (exit $rc): $got $(tr "\n" " " <"$tmp/err")"
"$run" -np 4 --stack-size 64K "$tmp/crash" big >/dev/null 2>"$tmp/err"
rc=$?
if [ -n "${SAN:-}" ]; then # the sanitizers own SIGSEGV: failure only
	[ $rc != 0 ]
else
	[ $rc = 139 ] && grep -q "overflowed its 64 KiB stack; set vp_opts.stack_size or VP_STACK_SIZE (vpmpirun --stack-size) to raise it" "$tmp/err"
fi
check $? "--stack-size 64K: the 1 MiB array overflows, named (exit $rc): $(tr "\n" " " <"$tmp/err")"
"$run" -np 2 --stack-size 1MB "$tmp/crash" big >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "vpmpirun: --stack-size '1MB' is not a size in bytes" "$tmp/err"
check $? "--stack-size 1MB is refused naming it (exit $rc): $(tr "\n" " " <"$tmp/err")"

# a rank's death: the job's status as Open MPI's mpirun gives it (4.1:
# abort() 134, SIGSEGV 139, SIGFPE 136, exit(5) 5 after the atexit
# handlers; MPI_Abort(..., 256) gives 0 there, never here)
for how in abort:6:134 segv:11:139; do
	sig=${how#*:}
	want=${sig#*:}
	sig=${sig%:*}
	how=${how%%:*}
	"$run" -np 3 "$tmp/crash" $how >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ -n "${SAN:-}" ]; then
		[ $rc != 0 ] && ! grep -q "went on" "$tmp/out"
	else
		[ $rc = $want ] && grep -q "vp: rank 1 died of signal $sig " "$tmp/err" &&
			! grep -q "went on" "$tmp/out"
	fi
	check $? "a rank's $how ends the job naming it (exit $rc): $(cat "$tmp/err" "$tmp/out" | tr "\n" " " | head -c 300)"
done
"$run" -np 3 "$tmp/crash" abort256 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "MPI_Abort(256)" "$tmp/err" && ! grep -q "went on" "$tmp/out"
check $? "MPI_Abort(MPI_COMM_WORLD, 256) does not exit 0 (exit $rc): $(tr "\n" " " <"$tmp/err")"
"$run" -np 3 "$tmp/crash" atexit >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 5 ] && grep -q "rank 1 called exit(5)" "$tmp/err" &&
	grep -q "the atexit handler ran" "$tmp/err" && ! grep -q "went on" "$tmp/out"
check $? "atexit, then exit(5) on a rank: status 5, the handler runs (exit $rc): $(tr "\n" " " <"$tmp/err")"
got=$(timeout 60 "$run" -np 4 "$tmp/crash" fork 2>"$tmp/err")
rc=$?
[ $rc = 0 ] && [ "$got" = "children exited with 0 and 7" ]
check $? "a rank's forked child ends with its exit(0) and exit(7) (exit $rc): $got $(tr "\n" " " <"$tmp/err")"

"$run" -np 0 "$tmp/ring" >/dev/null 2>&1
check $(($? == 2 ? 0 : 1)) "vpmpirun -np 0 is refused (exit 2)"

# the same seed, the same output, its order too
a=$(VP_SCHEDULE=42 "$run" -np 4 "$tmp/schedule_order" 2>"$tmp/err")
rc=$?
b=$(VP_SCHEDULE=42 "$run" -np 4 "$tmp/schedule_order" 2>>"$tmp/err")
[ $rc = 0 ] && [ $? = 0 ] && [ "$a" = "$b" ] &&
	[ "$(echo "$a" | grep -c "done, sum 285")" = 4 ]
check $? "schedule_order on 4 ranks twice with VP_SCHEDULE=42: the same stdout, line for line ($(echo "$a" | head -3 | tr "\n" " ")...) $(head -c 300 "$tmp/err")"

echo "1..$n"
[ $fail = 0 ]
