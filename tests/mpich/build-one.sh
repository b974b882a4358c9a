#!/bin/sh
# build-one.sh CC FLAGS SOURCES OBJECTS OUT - builds one test of MPICH's
# suite for run.sh. OUT is made in every case, so that make keeps the
# outcome: when the build fails, OUT.failed says why and OUT.log has the
# compiler's output.
cc=$1 flags=$2 srcs=$3 objs=$4 out=$5
rm -f "$out" "$out.failed" "$out.log"
if ! $cc $flags $srcs $objs -lm -o "$out" >"$out.log" 2>&1; then
	miss=$(grep -o "undefined reference to .[A-Za-z_0-9]*" "$out.log" |
		sed 's/.* .//' | sort -u | tr '\n' ' ')
	if [ -n "$miss" ]; then
		echo "fail build: lacks $miss" >"$out.failed"
	else
		echo "fail build: $(grep -m1 'error' "$out.log" | sed 's/.*error: //')" >"$out.failed"
	fi
	: >"$out"
fi
exit 0
