#!/bin/bash
# run.sh - builds and runs MPICH's MPI test suite (test/mpi of MPICH) with
# vp's MPI, as MPICH's own `runtests` does, and prints the passes by
# directory. `make check-mpich` calls it.
#
#   tests/mpich/run.sh [options] [SUITE]
#     SUITE          the suite's test/mpi directory (default
#                    ../shared/mpich-testsuite beside the repository)
#     -j N           builds and runs at once (default 2)
#     -d "DIRS"      only these directories (default: all that are there of
#                    attr coll comm datatype errhan group info init pt2pt
#                    rma topo)
#     -t REGEX       only the tests whose name, or instance (NAME.IDX:
#                    accfence1.dtp123, sendrecv1.7), matches REGEX
#     -s N           only every Nth instance of each directory (1st, N+1th
#                    ...: a sample, e.g. to time Open MPI beside vp)
#     -o             also runs every test under Open MPI (mpicc, mpirun)
#                    and lists the tests one passes and the other fails
#     -f FILE        fails (exit 1) when fewer tests pass than FILE's number
#     -T SECONDS     the longest a test may run when its testlist line
#                    gives no timeLimit= (default 180, as MPICH's runtests;
#                    a timeLimit= is used as it is, higher or lower)
#     -M GB          the memory an instance may need (default: the
#                    machine's); an instance whose testlist line says more
#                    (mem=) is skipped, as MPICH's runtests skips it
#     -B DIR         the build directory (default build/mpich)
#     -r             runs every test again (results are otherwise kept
#                    until the test's binary changes)
#     -v             prints each failing test's output
#
# Each instance's run (the launcher's wall time) and each program's build
# are timed: the table gives their sums by directory, the last lines the
# suite's run time apart from its build time and, with -o, Open MPI's
# beside it and the instances that run slowest under vp relative to Open
# MPI (all instances' times: BUILD/times, "instance vp-seconds
# ompi-seconds").
#
# Each directory's testlist (or testlist.in; lines with configure's @...@
# are dropped, as configure drops them when the feature is off) names one
# test instance a line: `name np [key=value ...]`. As runtests: arg= are
# the program's arguments, env= its environment, timeLimit= its time,
# mpiversion=M.m skips the test when the MPI is older than M.m, xfail= marks
# an expected failure (a failure is then counted apart, not as failed).
# A test passes when it exits 0, prints a line " No Errors", and prints
# nothing else (resultTest=TestAllowWarnings: other lines are allowed;
# resultTest=TestStatus or TestErrFatal: it passes when it fails, with a
# non-zero exit status or killed at its time limit).
# A test is built from its directory's Makefile.am (name_SOURCES,
# name_CPPFLAGS, sendrecvt*'s LDADDDATA) with the suite's harness
# (util/mtest.c, mtest_common.c, mtest_single.c, dtypes.c, and
# run_mpitests.c's main for a test that only defines run()) unchanged and
# this directory's mpitestconf.h and mtest_mpix.h, which configure and
# MPICH's build write. Tests that use the datatype pool library (through
# dtpools.h or mtest_dtp.h) are linked with it, built from the suite's
# dtpools/ with dtpoolsconf.h; its generated instances (testlist.dtp in
# MPICH's build) come from dtp-tests.
# Builds and results are kept in the build directory (a make file there
# redoes only what changed). VP_BUILD: vp's build directory (default
# build/). Exit status: 0, 1 (below the floor, or the harness does not
# build), 77 (no suite: skipped).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
jobs=2 dirs="" filter="" ompi=0 floor="" tmax=180 bdir="$root/build/mpich"
rerun=0 verbose=0 sample=1
memgb=$(awk '/^MemTotal:/ { printf "%.1f", $2 / 1e6 }' /proc/meminfo 2>/dev/null)
while getopts "j:d:t:s:of:T:M:B:rv" o; do
	case $o in
	j) jobs=$OPTARG ;;
	d) dirs=$OPTARG ;;
	t) filter=$OPTARG ;;
	s) sample=$OPTARG ;;
	o) ompi=1 ;;
	f) floor=$OPTARG ;;
	T) tmax=$OPTARG ;;
	M) memgb=$OPTARG ;;
	B) bdir=$OPTARG ;;
	r) rerun=1 ;;
	v) verbose=1 ;;
	*) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
suite=${1:-$root/../shared/mpich-testsuite}
if [ ! -f "$suite/util/mtest.c" ]; then
	cat >&2 <<EOF
check-mpich: SKIPPED: MPICH's test suite is not at '$suite'.
  Get it with:
    git clone --filter=blob:none --sparse https://github.com/pmodels/mpich
    (cd mpich && git sparse-checkout set test/mpi)
  and run: make check-mpich MPICH_TESTS=\$PWD/mpich/test/mpi
EOF
	exit 77
fi
suite=$(cd "$suite" && pwd)
vpb=${VP_BUILD:-$root/build} # vp's build: vpmpicc, vpmpirun, libvpmpi.a
# both as absolute paths: the builds and runs happen from inside bdir
vpb=$(cd "$vpb" && pwd) || { echo "check-mpich: no vp build at '${VP_BUILD:-}'" >&2; exit 2; }
mkdir -p "$bdir" && bdir=$(cd "$bdir" && pwd) || exit 2
[ -n "$dirs" ] || dirs="attr coll comm datatype errhan group info init pt2pt rma topo"
start=$(date +%s)

# impl_setup IMPL: the compiler and launcher of an implementation
impl_setup() {
	case $1 in
	vp)
		cc="$vpb/vpmpicc"
		# what a program embeds of vp: a change to vp relinks it
		dep="$vpb/libvpmpi.a $vpb/vpmpi_launch.o $vpb/libvpmpi_rank.a $vpb/vpmpicc"
		launch="$vpb/vpmpirun -np"
		mpiver=$(awk '/define MPI_VERSION/ { v = $3 } /define MPI_SUBVERSION/ { s = $3 } END { print v "." s }' "$root/include/vp/mpi.h") ;;
	ompi)
		cc=$(command -v mpicc) || { echo "check-mpich: no mpicc for -o" >&2; exit 2; }
		dep=""
		launch="mpirun --oversubscribe --allow-run-as-root -np"
		mpiver=$(mpirun --version 2>/dev/null | awk '/Open MPI/ { split($NF, v, "."); print (v[1] >= 4 ? "3.1" : "3.0") }') ;;
	esac
}

# list DIR: the test instances of DIR, one a line: "idx name np opts..."
list() {
	local f=$suite/$1/testlist
	[ -f "$f" ] || f=$suite/$1/testlist.in
	[ -f "$f" ] || return 0
	awk '{ sub(/#.*/, "") } /@/ { next } NF >= 1 { $1 = $1; print NR, $0 }' "$f"
	dtp_list "$1"
}

# dtp_list DIR: the instances of DIR's programs that use dtpools (MPICH's
# configure generates them; dtp-tests says how), one a line as list()
# prints them, numbered dtp1, dtp2... in the table's order
dtp_list() {
	awk -v dir="$1" '
	{ sub(/#.*/, "") } NF < 5 { next }
	{
		n = split($1, path, "/"); d = substr($1, 1, length($1) - length(path[n]) - 1)
		extra = ""
		for (i = 6; i <= NF; i++) if ($i != "--") extra = extra " " $i
		nc = split($5, counts, ",")
		for (t = 1; t <= 2; t++) {
			type = t == 1 ? "MPI_INT" : "MPI_INT:4+MPI_DOUBLE:8"
			for (c = 1; c <= nc; c++) {
				if (c == 1) size = $4
				else {
					size = int(size * counts[1] / counts[c])
					if (size < $3) size = $3
					if (size > $4) size = $4
				}
				reps = (d == "pt2pt" || d == "part") ? 2 : 1
				for (r = 1; r <= reps; r++) {
					seed++
					if (d != dir) continue
					if (reps == 2)
						a = "arg=-sendcnt=" counts[c] " arg=-recvcnt=" counts[c] * r
					else
						a = "arg=-count=" counts[c]
					print "dtp" seed, path[n], $2, "arg=-type=" type, a, \
					    "arg=-seed=" seed, "arg=-testsize=" size extra
				}
			}
		}
	}' "$here/dtp-tests"
}

# sources DIR: "NAME|SOURCES|CPPFLAGS|DATA" of every program of DIR that
# its Makefile.am gives sources, flags or LDADDDATA
sources() {
	awk '
	function base(v, suf) { return substr(v, 1, length(v) - length(suf)) }
	{ sub(/[ \t]*=[ \t]*/, " = ") } # NAME= VALUE as NAME = VALUE
	$1 ~ /_SOURCES$/ { n = base($1, "_SOURCES"); names[n] = 1
		for (i = 3; i <= NF; i++) s[n] = s[n] " " $i }
	$1 ~ /_CPPFLAGS$/ { n = base($1, "_CPPFLAGS"); names[n] = 1
		for (i = 3; i <= NF; i++) if ($i !~ /AM_CPPFLAGS/) c[n] = c[n] " " $i }
	$1 ~ /_LDADD$/ && /LDADDDATA/ { n = base($1, "_LDADD"); names[n] = 1; d[n] = 1 }
	END { for (n in names) print n "|" s[n] "|" c[n] "|" d[n] }' "$suite/$1/Makefile.am"
}

# gen IMPL: writes IMPL's make file, which builds every test and runs
# every instance (results in DIR/NAME.IDX.res, output in .out)
gen() {
	local impl=$1 b=$bdir/$1 d line idx name np rest
	impl_setup "$impl"
	mkdir -p "$b/util"
	{
		echo "CC := $cc"
		echo "S := $suite"
		# MPICH is defined as MPICH's own mpi.h defines it: eleven tests
		# (the neighbourhood collectives' nonblocking and persistent
		# forms, hindexed_block) test their calls, all MPI 4.0 ones,
		# only where it is; without it they pass having tested nothing
		echo "I := -I$here -I$suite/include -DMPICH=1"
		echo ".DELETE_ON_ERROR:"
		echo "all:"
		for h in mtest mtest_common mtest_single dtypes run_mpitests; do
			echo "util/$h.o: \$(S)/util/$h.c $here/mpitestconf.h $dep"
			echo "	@\$(CC) -c \$(I) \$< -o \$@ > \$@.log 2>&1 || { cat \$@.log; exit 1; }"
		done
		# the datatype pool library, for the tests that use it
		cp "$here/dtpoolsconf.h" "$b/dtpoolsconf.h"
		echo "DTP_I := -I\$(S)/dtpools/include -I$b/util"
		local dtp_objs=""
		for h in $(cd "$suite/dtpools/src" 2>/dev/null && ls -- *.c); do
			h=${h%.c}
			dtp_objs="$dtp_objs util/$h.o"
			echo "util/$h.o: \$(S)/dtpools/src/$h.c $here/dtpoolsconf.h $dep"
			echo "	@\$(CC) -c \$(I) \$(DTP_I) \$< -o \$@ > \$@.log 2>&1 || { cat \$@.log; exit 1; }"
		done
		for d in $dirs; do
			[ -d "$suite/$d" ] || continue
			mkdir -p "$b/$d"
			declare -A seen=() src=() flags=() data=() hasmain=()
			while IFS="|" read -r n s1 s2 s3; do
				src[$n]=$s1 flags[$n]=$s2 data[$n]=$s3
			done < <(sources "$d")
			for f in $(cd "$suite/$d" && grep -lE '^int main|^main' -- *.c); do
				hasmain[$f]=1
			done
			local k=0
			while read -r idx name np rest; do
				[ -n "$filter" ] && ! [[ $name =~ $filter ]] &&
					! [[ $name.$idx =~ $filter ]] && continue
				k=$((k + 1))
				[ $(((k - 1) % sample)) = 0 ] || continue
				if [ -z "${seen[$name]:-}" ]; then
					seen[$name]=1
					local srcs=${src[$name]:-$name.c} cppf=${flags[$name]:-}
					local deps="" s objs="util/mtest.o util/mtest_common.o util/mtest_single.o" main=0
					for s in $srcs; do
						deps="$deps \$(S)/$d/$s"
						[ -n "${hasmain[$s]:-}" ] && main=1
					done
					[ -n "${data[$name]:-}" ] && objs="$objs util/dtypes.o"
					if (cd "$suite/$d" && grep -qE 'dtpools.h|mtest_dtp.h' -- $srcs); then
						objs="$objs$dtp_objs"
						cppf="$cppf \$(DTP_I)"
					fi
					# a test that is only run() gets the suite's main
					[ $main = 1 ] || objs="$objs util/run_mpitests.o"
					echo "$d/$name.bin: $deps $objs $dep"
					echo "	@$here/build-one.sh '\$(CC)' '\$(I) -I\$(S)/$d $cppf' '$deps' '$objs' \$@"
				fi
				echo "all: $d/$name.$idx.res"
				echo "$d/$name.$idx.res: $d/$name.bin"
				echo "	@OUTFILE=\$(CURDIR)/$d/$name.$idx.out MPITEST_MPIVERSION=$mpiver MPITEST_MEMORY_TOTAL=$memgb MPITEST_JOBS=$jobs MPITEST_MEMLOCK=$bdir/mem.lock $here/run-one.sh '$launch' $tmax $d/$name.bin $np $rest > \$@.tmp && mv \$@.tmp \$@"
			done < <(list "$d")
			unset seen src flags data hasmain
		done
	} > "$b/tests.mk"
}

# go IMPL: builds and runs what changed
go() {
	local b=$bdir/$1
	gen "$1"
	# -r: the results of the instances selected (-d, -t, -s) only
	[ $rerun = 1 ] && (cd "$b" && sed -n 's/^all: //p' tests.mk | xargs rm -f)
	# a directory at a time, so that its results are there as soon as
	# its tests ran (make would build every test before running any)
	: >"$b/make.log"
	for d in $dirs; do
		(cd "$b" && make -k -j"$jobs" -f tests.mk \
			$(sed -n "s|^all: \($d/.*\)|\1|p" "$b/tests.mk") \
			>>"$b/make.log" 2>&1)
	done
	# the harness itself must build: else nothing can be measured
	for h in mtest mtest_common mtest_single; do
		[ -f "$b/util/$h.o" ] || { echo "check-mpich: the harness does not build with $1:"; cat "$b/util/$h.o.log"; return 1; }
	done
	return 0
}

go vp || exit 1
[ $ompi = 1 ] && { go ompi || exit 1; }

# results IMPL: "dir/name.idx verdict reason" lines; an instance without a
# result could not be built, for a part of the harness or of dtpools
# failed to build (make.log says why)
results() {
	(cd "$bdir/$1" && for f in $(sed -n 's/^all: //p' tests.mk); do
		if [ -f "$f" ]; then
			echo "${f%.res} $(head -1 "$f")"
		else
			echo "${f%.res} fail build: a harness or dtpools object failed (make.log)"
		fi
	done)
}
# run_times IMPL: "dir/name.idx seconds" for every instance that ran (its
# .res's line "time SECONDS")
run_times() {
	(cd "$bdir/$1" && for f in $(sed -n 's/^all: //p' tests.mk); do
		[ -f "$f" ] && sed -n "s|^time |${f%.res} |p" "$f"
	done)
}
# build_times IMPL: "dir/name seconds" for every program built (.bin.time)
build_times() {
	(cd "$bdir/$1" && for f in $(sed -n 's/^\([^ ]*\.bin\):.*/\1/p' tests.mk); do
		[ -f "$f.time" ] && echo "${f%.bin} $(cat "$f.time")"
	done)
}
# sum DIR: the sum of the seconds (second field) of the lines of stdin
# whose first field starts with DIR/ (every line when DIR is empty)
sum() {
	awk -v d="${1:+$1/}" 'index($1, d) == 1 { t += $2 } END { printf "%.1f", t }'
}
# the table: passes, failures, expected failures and skips by directory,
# and the seconds its instances ran and its programs took to build
report() {
	local impl=$1 b=$bdir/$1 d
	run_times "$1" >"$bdir/$1.run-times"
	build_times "$1" >"$bdir/$1.build-times"
	printf '%-10s %6s %6s %6s %6s %8s %8s\n' "$1:" pass fail xfail skip "run s" "build s"
	for d in $dirs; do
		[ -d "$b/$d" ] || continue
		set -- $(results "$impl" | awk -v d="$d/" '
			index($1, d) == 1 { n[$2]++ }
			END { printf "%d %d %d %d", n["pass"], n["fail"], n["xfail"], n["skip"] }')
		printf '%-10s %6d %6d %6d %6d %8s %8s\n' "$d" "$1" "$2" "$3" "$4" \
			"$(sum "$d" <"$bdir/$impl.run-times")" "$(sum "$d" <"$bdir/$impl.build-times")"
	done
}
report vp
results vp > "$bdir/vp.results"
echo
echo "failing with vp, by reason:"
awk '$2 == "fail" { r = $3; for (i = 4; i <= NF; i++) r = r " " $i; print "  " r ": " $1 }' "$bdir/vp.results" | sort
if [ $verbose = 1 ]; then
	for f in $(awk '$2 == "fail" { print $1 }' "$bdir/vp.results"); do
		echo "---- $f"; head -30 "$bdir/vp/$f.out"
	done
fi
if [ $ompi = 1 ]; then
	echo
	report ompi
	results ompi > "$bdir/ompi.results"
	echo
	echo "vp passes, Open MPI fails:"
	join "$bdir/vp.results" "$bdir/ompi.results" | awk '$2 == "pass" && $3 != "pass" { print "  " $1 }'
	echo "Open MPI passes, vp fails:"
	join "$bdir/vp.results" "$bdir/ompi.results" | awk '$2 != "pass" && $3 == "pass" { print "  " $1 }'
	echo "Open MPI: $(grep -c ' pass' "$bdir/ompi.results") passed, $(grep -c ' fail' "$bdir/ompi.results") failed"
fi
pass=$(grep -c ' pass' "$bdir/vp.results")
fail=$(grep -c ' fail' "$bdir/vp.results")
vprun=$(sum <"$bdir/vp.run-times")
echo "run time: vp $vprun s (building: $(sum <"$bdir/vp.build-times") s)"
if [ $ompi = 1 ]; then
	# the instances that ran under both, each one's seconds under both
	LC_ALL=C join <(LC_ALL=C sort "$bdir/vp.run-times") \
		<(LC_ALL=C sort "$bdir/ompi.run-times") >"$bdir/times"
	orun=$(sum <"$bdir/ompi.run-times")
	echo "run time: Open MPI $orun s (building: $(sum <"$bdir/ompi.build-times") s)"
	awk '{ v += $2; o += $3 } END { if (o > 0) printf "run time of the %d instances run by both: vp %.1f s, Open MPI %.1f s, vp/Open MPI %.2f\n", NR, v, o, v / o }' "$bdir/times"
	echo "slowest under vp relative to Open MPI (vp s, Open MPI s, ratio):"
	awk '$3 > 0 { printf "  %s %s %s %.2f\n", $1, $2, $3, $2 / $3 }' "$bdir/times" |
		sort -k4,4gr | head -10
fi
echo "wall time: $(($(date +%s) - start)) s"
echo "$pass passed, $fail failed"
if [ -n "$floor" ]; then
	want=$(grep -o '^[0-9]*' "$floor" | head -1)
	if [ "$pass" -lt "$want" ]; then
		echo "check-mpich: $pass passed, below the floor of $want ($floor)"
		exit 1
	fi
	echo "check-mpich: at or above the floor of $want ($floor)"
fi
exit 0
