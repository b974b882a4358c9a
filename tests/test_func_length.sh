#!/bin/sh
# test_func_length.sh - every function of the library (runtime/,
# collectives/, topology/, mpi/) is at most 80 lines long, counted from
# its first line to its closing brace: a longer one is split into helpers
# that each name one concept. A function is what the kernel style of
# .clang-format writes: its name at the start of a line, "{" and "}" alone
# at the start of theirs. One check per folder; a failure names each
# function with its file, first line and length.
#   sh tests/test_func_length.sh [MAX]   lists the functions over MAX lines
#                                        (80) in TAP
# TAP output; run by make check (it needs no build).
here=$(cd "$(dirname "$0")/.." && pwd)
max=${1:-80}
. "$here/tests/tap.sh"

# long_functions FOLDER: "file:line: N lines: first line" for each function
# of FOLDER's .c and .h files longer than max
long_functions() {
	find "$here/$1" -name '*.[ch]' | sort | xargs awk -v max="$max" '
	FNR == 1 { decl = 0; inside = 0 }
	/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { decl = FNR; head = $0 }
	/^\{/ { first = decl ? decl : FNR; name = head; inside = 1; next }
	/^\}/ && inside {
		if (FNR - first + 1 > max)
			print FILENAME ":" first ": " FNR - first + 1 \
			    " lines: " name
		inside = 0
		decl = 0
	}' | sed "s|^$here/||"
}

for dir in runtime collectives topology mpi; do
	long=$(long_functions $dir)
	[ -z "$long" ]
	check $? "every function in $dir/ is at most $max lines${long:+:
$long}"
done

echo "1..$n"
[ $fail = 0 ]
