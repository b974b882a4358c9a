#!/bin/sh
# test_mpi.sh - MPI programs on vp: tests/mpi/*.c compiled unchanged with
# vpmpicc and run with vpmpirun at 1, 2, 3, 4 and 8 ranks. Each program
# prints what it computed (and checks itself); the output is the expected
# one and, where Open MPI is installed, the same as the same source built
# with mpicc and run with mpirun (in the plain pass; the sanitizer passes
# check the expected output only). What a wrong program, a crash or a bad
# setting gets is in test_mpi_cases.sh.
#   - point-to-point, collectives, derived datatypes, v-collectives, user
#     and MAXLOC ops, groups, Cartesian grids, error handlers (the
#     program's own too), the seed's own allgathers (tests/mpi/seed,
#     unchanged), per-rank globals;
#   - persistent requests, MPI_Request_free, attributes and keyvals with
#     their callbacks (persistent_attrs.c); MPI_Comm_create_group by two
#     halves at once (create_group.c); graph and distributed graph
#     topologies and the neighbourhood collectives on them and on grids
#     (graphs.c); nonblocking collectives, with Waitall, Test loops,
#     Waitany and the progress rule (icollectives.c); one-sided windows
#     with fences (onesided.c) and with non-contiguous target datatypes
#     (rma_types.c); 1020 communicators and 100 windows held at once, a
#     receive completing on a communicator freed while it was pending
#     (many_comms.c); one type signature named by different datatypes on
#     different ranks (type_sigs.c); every communicator constructor, with
#     the disjoint groups MPI_Comm_create allows and ranks outside the group
#     getting MPI_COMM_NULL (comm_ctors.c, its output for each rank count in
#     comm_ctors.N.out, Open MPI's); receives posted first, then MPI_Send of
#     100 KiB or MPI_Ssend of 8 B to them (safe_exchange.c); info objects,
#     names, window attributes, range groups, envelopes, intercommunicators
#     merged, buffer attach, Testany/Testsome, Alltoallw (harness_calls.c:
#     what MPICH's test harness needs); libc's state of a process per rank
#     (per_rank_libc.c: getopt, rand, random, drand48, strtok, setlocale,
#     gmtime, argv's strings); the nonblocking v- and w-collectives, in
#     place, with derived types and a non-commutative op (ivcollectives.c);
#     a duplicate of a committed type used at once (type_dup.c); one
#     VP_SCHEDULE seed giving the same output twice (schedule_order.c).
# TAP output; run by make check with VP_TOOLS set to the build folder.
# test_mpi.sh NAME (or VP_TEST_CASE=NAME): the program tests/mpi/NAME.c only.
. "$(cd "$(dirname "$0")" && pwd)/mpi_setup.sh"

show=$("$cc" -show x.c -o x)
case $show in
*-Dmain=vpmpi_user_main*libvpmpi.a*libvp.a*) ok "vpmpicc -show: $show" ;;
*) notok "vpmpicc -show: $show" ;;
esac

progs="ring trapezoid p2p collectives datatypes vcollectives cart_groups errors seed_allgather globals persistent_attrs create_group graphs icollectives onesided safe_exchange comm_ctors rma_types many_comms type_sigs per_rank_libc harness_calls ivcollectives type_dup"
progs=$(keep $progs) # the one asked for (mpi_setup.sh), or all
build $progs
# the programs not rerun under Open MPI (why: at the comparison below)
no_ref="onesided rma_types many_comms harness_calls comm_ctors type_sigs"
build_ref $(for p in $progs; do in_list $p $no_ref || echo $p; done)

for np in 1 2 3 4 8; do
	t=$((np * (np - 1) / 2))
	[ $np = 1 ] && want_ring="ring of 1: token 0" ||
		want_ring="ring of $np: token $t from $((np - 1)) tag 7"
	for p in $progs; do
		got=$("$run" -np $np "$tmp/$p" 2>"$tmp/err")
		rc=$?
		case $p in
		ring) want=$want_ring ;;
		trapezoid) want="1200 trapezoids on $np ranks: integral 9.000003" ;;
		p2p) want="p2p on $np ranks: ok (0 bad)" ;;
		collectives)
			s=$((3 * np * (np - 1) / 2 + np))
			want="collectives on $np ranks: max $((3 * (np - 1) + 1)) min 1 sum $s"
			;;
		datatypes) want="datatypes on $np ranks: maxloc" ;;
		vcollectives) want="v-collectives and ops on $np ranks: ok (0 bad)" ;;
		cart_groups) want="cartesian" ;;
		errors) want="errors returned: rank MPI_ERR_RANK, tag MPI_ERR_TAG, count MPI_ERR_COUNT, root MPI_ERR_ROOT; handler MPI_ERRORS_RETURN; described; own handler called 2 times (MPI_ERR_RANK), the call returned an error" ;;
		seed_allgather)
			case $np in 1) c="not run (p = 1)" ;; 3) c="not run (p is not a power of two)" ;; *) c=ok ;; esac
			want="seed allgathers on $np ranks: ring ok, cube $c" ;;
		globals) want="globals on $np ranks: one copy per rank" ;;
		per_rank_libc) want="per-rank libc on $np ranks: ok (0 bad); rank $((np - 1)) draws rand " ;;
		persistent_attrs) want="persistent requests and attributes on $np ranks: ok (0 bad)" ;;
		graphs) want="graphs and neighbourhood collectives on $np ranks (grid" ;;
		icollectives) want="nonblocking collectives on $np ranks: ok (0 bad)" ;;
		ivcollectives) want="nonblocking v-collectives on $np ranks: ok (0 bad)" ;;
		type_dup) want="type_dup on $np ranks: ok (0 bad)" ;;
		onesided) want="one-sided windows on $np ranks: ok (0 bad)" ;;
		safe_exchange) want="safe exchange on $np ranks: ok (0 bad)" ;;
		comm_ctors) want=$(cat "$here/mpi/comm_ctors.$np.out") ;;
		many_comms) want="1020 communicators twice and 100 windows on $np ranks: sum $((np * np * (np - 1) + 4200 * np)); received on a freed communicator: 42" ;;
		type_sigs) want="type signatures on $np ranks: ok (0 bad)" ;;
		rma_types) want="one-sided with derived target datatypes on $np ranks: ok (0 bad)" ;;
		harness_calls) want="harness calls on $np ranks: ok (0 bad)" ;;
		create_group)
			e=0 o=0 i=0
			while [ $i -lt $np ]; do
				[ $((i % 2)) = 0 ] && e=$((e + i)) || o=$((o + i))
				i=$((i + 1))
			done
			want="create_group on $np ranks: even ranks sum $e, odd ranks sum $o; ok" ;;
		esac
		case $p in datatypes | cart_groups | graphs)
			case $got in *"ok (0 bad)") ;; *) want=WRONG ;; esac ;;
		esac
		case $got in
		"$want"*) [ $p != collectives ] || case $got in *"; ok") ;; *) rc=1 ;; esac ;;
		*) rc=1 ;;
		esac
		[ $p != comm_ctors ] || [ "$got" = "$want" ] || rc=1
		check $rc "$p on $np ranks: $got $(head -c 300 "$tmp/err")"
		# Open MPI 4.1 here creates no window on one process, nor on
		# any number with the single-copy mechanism the reference runs
		# need off (MPI_Win_create fails with MPI_ERR_WIN): the
		# one-sided programs check their own results instead;
		# comm_ctors's expected output is Open MPI's, kept, and
		# type_sigs checks itself (each mpirun costs seconds);
		# per_rank_libc: Open MPI at 4 ranks, to keep the time down
		if has_ref "$p" && ! in_list "$p" $no_ref &&
		    { [ $p != per_rank_libc ] || [ $np = 4 ]; }; then
			ref=$(mpirun_ref $np "$tmp/$p.ompi")
			[ "$ref" = "$got" ]
			check $? "$p on $np ranks: the same output as Open MPI's ($ref)"
		fi
	done
done

# a deterministic schedule (VP_SCHEDULE): the same seed, the same output,
# its order too, of a program whose output follows the interleaving
if [ -n "$(keep schedule_order)" ]; then
	build schedule_order
	a=$(VP_SCHEDULE=42 "$run" -np 4 "$tmp/schedule_order" 2>"$tmp/err")
	rc=$?
	b=$(VP_SCHEDULE=42 "$run" -np 4 "$tmp/schedule_order" 2>>"$tmp/err")
	[ $rc = 0 ] && [ $? = 0 ] && [ "$a" = "$b" ] &&
		[ "$(echo "$a" | grep -c "done, sum 285")" = 4 ]
	check $? "schedule_order on 4 ranks twice with VP_SCHEDULE=42: the same stdout, line for line ($(echo "$a" | head -3 | tr "\n" " ")...) $(head -c 300 "$tmp/err")"
fi

echo "1..$n"
[ $fail = 0 ]
