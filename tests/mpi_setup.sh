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

# One program by name: the script's argument, or VP_TEST_CASE, a glob of
# tests/mpi/ names (ring, "one*"). Only the programs it names are built and
# run: keep NAME... prints those selected, and vpmpicc and vpmpirun are
# wrapped so that a check on another program reports "# SKIP not selected"
# (tap.sh's tap_skip_mark).
only=${1:-${VP_TEST_CASE:-}}
keep() {
	for p in "$@"; do
		case $p in ${only:-*}) echo "$p" ;; esac
	done
}
if [ -n "$only" ]; then
	tap_skip_mark="$tmp/.skip"
	# wrap TOOL SUFFIX: the real tool for a program named by only (the
	# argument under $tmp/ or ending in .c), else a skip noted
	wrap() {
		printf '%s\n' '#!/bin/sh' 'for a; do' \
		    "  case \$a in $2) p=\${a##*/}; p=\${p%.c}; p=\${p%.ompi}" \
		    "    case \$p in $only) exec '$1' \"\$@\" ;; esac" \
		    "    : >'$tmp/.skip'; exit 0 ;; esac" \
		    'done' "exec '$1' \"\$@\"" >"$tmp/$(basename "$1")"
		chmod +x "$tmp/$(basename "$1")"
	}
	wrap "$(cd "$(dirname "$cc")" && pwd)/vpmpicc" '*.c'
	wrap "$(cd "$(dirname "$run")" && pwd)/vpmpirun" "'$tmp'/*"
	cc="$tmp/vpmpicc"
	run="$tmp/vpmpirun"
fi

# says NAME KEY: the text after " * KEY: " in tests/mpi/NAME.c's head
# comment (up to its first "*/"), empty when it has no such line
says() {
	sed -n "1,/\*\//s/^ \* $2: //p" "$here/mpi/$1.c" | head -n 1
}

# expected NAME NP: what NAME prints on NP ranks (NAME.NP.out, or NAME.out with @NP@ as NP); fails without
expected() {
	if [ -f "$here/mpi/$1.$2.out" ]; then
		cat "$here/mpi/$1.$2.out"
	elif [ -f "$here/mpi/$1.out" ]; then
		sed "s/@NP@/$2/g" "$here/mpi/$1.out"
	else
		return 1
	fi
}

# build NAME...: each tests/mpi/NAME.c with vpmpicc into $tmp/NAME, one
# check each (the sources compile unchanged, warnings as errors)
build() {
	for p in $(keep "$@"); do
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
	for p in $(keep "$@"); do
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
