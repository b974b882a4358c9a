# mpi_setup.sh - sourced by the MPI-program tests (test_mpi*.sh): the
# tools, a scratch folder, TAP, and helpers to build tests/mpi/*.c with
# vpmpicc and, where Open MPI is installed, with its mpicc as a reference.
here=$(cd "$(dirname "$0")" && pwd)
tools=${VP_TOOLS:-build}
cc="$tools/vpmpicc"
run="$tools/vpmpirun"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/tap.sh"

# build NAME...: each tests/mpi/NAME.c with vpmpicc into $tmp/NAME, one
# check each (the sources compile unchanged, warnings as errors)
build() {
	for p in "$@"; do
		if "$cc" -O2 -Wall -Werror "$here/mpi/$p.c" -o "$tmp/$p" \
		    2>"$tmp/$p.cc"; then
			ok "vpmpicc compiles tests/mpi/$p.c unchanged"
		else
			notok "vpmpicc tests/mpi/$p.c: $(cat "$tmp/$p.cc")"
		fi
	done
}

# Open MPI, when it is installed, runs the same sources as the reference,
# in the plain pass only (make check sets SAN for the sanitizer passes):
# its output does not depend on how vp was built. build_ref NAME... makes
# $tmp/NAME.ompi for each source mpicc compiles; has_ref NAME says whether
# there is one.
ompi=0
if [ -z "${SAN:-}" ] && command -v mpicc >/dev/null &&
    command -v mpirun >/dev/null; then
	ompi=1
fi
build_ref() {
	[ $ompi = 1 ] || return 0
	for p in "$@"; do
		mpicc -O2 "$here/mpi/$p.c" -o "$tmp/$p.ompi" 2>/dev/null ||
			echo "# Open MPI's mpicc does not compile tests/mpi/$p.c: no reference for it"
	done
}
has_ref() { [ $ompi = 1 ] && [ -x "$tmp/$1.ompi" ]; }
mpirun_ref() {
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	    timeout 120 mpirun --oversubscribe --bind-to none \
	    --mca btl_vader_single_copy_mechanism none -np "$1" "$2" \
	    2>/dev/null
}
in_list() { # word, then the list
	w=$1
	shift
	case " $* " in *" $w "*) return 0 ;; esac
	return 1
}
