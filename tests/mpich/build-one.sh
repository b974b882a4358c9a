#!/bin/sh
# build-one.sh CC FLAGS SOURCES OBJECTS OUT - builds one test of MPICH's
# suite for run.sh. OUT is made in every case, so that make keeps the
# outcome: when the build fails, OUT.failed says why and OUT.log has the
# compiler's output. OUT.time: the build's wall time in seconds.
cc=$1 flags=$2 srcs=$3 objs=$4 out=$5
rm -f "$out" "$out.failed" "$out.log" "$out.time"
t0=$(date +%s%N)
$cc $flags $srcs $objs -lm -o "$out" >"$out.log" 2>&1
rc=$?
t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))
printf '%d.%03d\n' $((ms / 1000)) $((ms % 1000)) >"$out.time"
if [ $rc != 0 ]; then
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
