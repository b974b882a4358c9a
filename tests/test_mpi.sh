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
#     a duplicate of a committed type used at once (type_dup.c); MPI_Cancel
#     of every kind of send request, nothing lost (cancel_sends.c);
#     attributes on datatypes, communicators and windows from one store,
#     added error classes and codes (attr_store.c); subarray and darray
#     types, hindexed blocks, the MPI_Count queries, MPI_Type_match_size,
#     complex and Fortran named types in reductions (type_arrays.c); a
#     0-dimensional grid, MPI_Cart_map, MPI_Graph_map,
#     MPI_Dist_graph_create, MPI_Dims_create (topo_more.c); MPI 4.0 in
#     mpi.h and MPI_Get_version, the _c status calls, an intercommunicator
#     of two groups (mpi4_calls.c); matched
#     probes, MPI_Request_get_status, generalized requests and a large
#     MPI_Bsend ring (matched_probe.c); point to point, duplicates, splits
#     and collectives with MPI_ROOT on intercommunicators (intercomm.c);
#     MPI_Isendrecv(_replace), persistent collectives started in different
#     orders, MPI_Send_c, an op and a datatype freed before a nonblocking
#     collective's wait (mpi4_p2p_coll.c: MPI 4.0, which Open MPI 4.1
#     lacks: no reference run); passive target and atomics: exclusive and
#     shared locks, lock_all, flushes, fetch-and-op, compare-and-swap,
#     get-accumulate with MPI_NO_OP, MPI_REPLACE, MPI_MAXLOC and MPI_LAND
#     (rma_lock.c); MPI_Comm_idup while the others communicate on the
#     parent, a rank 300 duplicates ahead (comm_idup_early.c); attributes
#     and comparisons on intercommunicators, MPI_Comm_disconnect
#     (intercomm_attrs.c); MPI_Dims_create among equally balanced grids
#     (dims_ties.c); sessions without MPI_Init (sessions.c);
#     collectives of nothing from NULL buffers, every op on
#     MPI_CHAR, Reduce_scatter(_block) and Ireduce_scatter on an
#     intercommunicator of unequal groups (coll_edges.c); the v and w
#     neighbourhood collectives on a ring and a line, blocks of different
#     sizes and datatypes, an edge's block left as it was (neighbor_vw.c);
#     the nonblocking neighbourhood collectives on a grid and a distributed
#     graph of unequal degrees, posted before the neighbour joins and with
#     point to point before the wait (ineighbor.c); the persistent and
#     large-count ones (neighbor_init.c: no reference run, the expected
#     output is MPICH 4.0's too);
#     partitioned point to point with different partition counts on the
#     two sides, MPI_Parrived polled, a partition arriving before the next
#     is marked, wrong partitioned calls refused (partitioned.c,
#     partitioned_early.c, partitioned_errors.c); every large-count
#     point-to-point, packing and constructor call with small counts, and
#     a count above INT_MAX refused where vp runs the int sibling
#     (large_count_calls.c, large_count_refused.c); MPI_Pcontrol and
#     MPI_Comm_get_parent (pcontrol_parent.c);
#     thousands of handles of every kind held
#     at once and used, 100 intercommunicators beside 1030 communicators
#     among them (many_handles.c), 200 sessions held at once
#     (many_sessions.c), 20000 communicators made and freed in turn,
#     intercommunicators among them (comm_churn.c).
#
# Adding a test is adding a program and what it prints. Every tests/mpi/*.c
# is a test here (tests/mpi/seed/ holds sources the programs include); its
# expected output is a file beside it, compared whole and exactly:
#   tests/mpi/NAME.N.out  the output on N ranks (N = 1, 2, 3, 4, 8), where
#                         it depends on the rank count otherwise than by
#                         naming it (ring.c's token is N(N - 1)/2);
#   tests/mpi/NAME.out    else the output on any rank count, @NP@ standing
#                         for the count ("p2p on @NP@ ranks: ok (0 bad)").
# A program with neither fails, at every rank count, showing what it
# printed. A line in the program's head comment says what else to do:
#   " * no-ref: WHY"   not rerun under Open MPI (it checks itself, or Open
#                      MPI cannot run it here);
#   " * ref-np: N"     rerun under Open MPI on N ranks only;
#   " * ref-osc: LIST"  Open MPI's window components to rerun it with
#                      (OMPI_MCA_osc; the default one makes no window
#                      under the reference runs' settings);
#   " * san-np: LIST"  the rank counts to run on in the sanitizer passes
#                      (of theirs; a program whose run under them is long
#                      and whose other counts add no path);
#   " * run-by: test_mpi_cases.sh"  not a test here: a program of that
#                      script (a crash, a wrong program, a library), or of
#                      test_explore_mpi.sh.
# VP_MPI_NPS: the rank counts to run on (default "1 2 3 4 8"). The
# sanitizer passes leave out 4, whose paths are those of the other powers
# of two, 2 and 8 (make check SAN=address: 1 2 3 8), and ThreadSanitizer
# 1, where no rank has another to race with, and 3, whose paths the
# plain and AddressSanitizer passes take (SAN=thread: 2 8).
# TAP output; run by make check with VP_TOOLS set to the build folder.
# test_mpi.sh NAME (or VP_TEST_CASE=NAME): the program tests/mpi/NAME.c only.
. "$(cd "$(dirname "$0")" && pwd)/mpi_setup.sh"

show=$("$cc" -show x.c -o x)
case $show in
*-Dmain=vpmpi_user_main*libvpmpi_rank.a*vpmpi_launch.o*) ok "vpmpicc -show: $show" ;;
*) notok "vpmpicc -show: $show" ;;
esac

progs=$(for f in "$here"/mpi/*.c; do
	p=${f##*/}
	p=${p%.c}
	[ -n "$(says $p run-by)" ] || echo $p
done)
progs=$(keep $progs) # the one asked for (mpi_setup.sh), or all
# Open MPI's builds beside vp's: each compiler runs one file at a time,
# and the plain pass runs alone, so the second CPU is otherwise idle
build_ref $(for p in $progs; do [ -n "$(says $p no-ref)" ] || echo $p; done) &
refs=$!
build $progs
wait $refs

for np in ${VP_MPI_NPS:-1 2 3 4 8}; do
	for p in $progs; do
		san_np=$(says $p san-np)
		if [ -n "${SAN:-}" ] && [ -n "$san_np" ]; then
			case " $san_np " in *" $np "*) ;; *) continue ;; esac
		fi
		got=$("$run" -np $np "$tmp/$p" 2>"$tmp/err")
		rc=$?
		if ! want=$(expected $p $np); then
			notok "$p on $np ranks: no expected output (tests/mpi/$p.$np.out or $p.out); it printed: $got"
			continue
		fi
		[ "$got" = "$want" ] || rc=1
		check $rc "$p on $np ranks: $got $(head -c 300 "$tmp/err")"
		ref_np=$(says $p ref-np)
		if has_ref "$p" && [ -z "$(says $p no-ref)" ] &&
		    { [ -z "$ref_np" ] || [ "${ref_np%% *}" = $np ]; }; then
			osc=$(says $p ref-osc)
			ref=$([ -z "$osc" ] || export OMPI_MCA_osc="$osc"
			    mpirun_ref $np "$tmp/$p.ompi")
			[ "$ref" = "$got" ]
			check $? "$p on $np ranks: the same output as Open MPI's ($ref)"
		fi
	done
done

echo "1..$n"
[ $fail = 0 ]
