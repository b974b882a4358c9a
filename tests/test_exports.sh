#!/bin/sh
# test_exports.sh - libvp.so exports exactly the public API:
#   - no internal vp__ symbol (the library is built with -fvisibility=hidden);
#   - every function declared VP_API in include/vp.h (or in
#     include/vp/vp_layer.h, which vp.h includes) is there;
#   - every exported function is declared in one of them.
# TAP output; run by make check with VP_TOOLS set to the build folder.
here=$(dirname "$0")
lib=${VP_TOOLS:-build}/libvp.so
hdrs="$here/../include/vp.h $here/../include/vp/vp_layer.h"
echo "1..3"
if [ ! -f "$lib" ]; then
	echo "not ok 1 - $lib is missing"; echo "not ok 2 - skipped"
	echo "not ok 3 - skipped"; exit 1
fi
exported=$(nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }' | sort)
declared=$(cat $hdrs | grep -v '^#' | tr '\n' ' ' | grep -o 'VP_API[^;(]*(' |
	sed 's/($//; s/.*[ *]//' | sort -u)
internal=$(echo "$exported" | grep '^vp__')
if [ -z "$internal" ]; then
	echo "ok 1 - no vp__ symbol is exported"
else
	echo "not ok 1 - internal symbols exported:" $internal
fi
missing=$(echo "$declared" | while read -r f; do
	echo "$exported" | grep -qx "$f" || echo "$f"; done)
if [ -z "$missing" ]; then
	echo "ok 2 - all $(echo "$declared" | wc -l) VP_API functions are exported"
else
	echo "not ok 2 - declared but not exported:" $missing
fi
extra=$(echo "$exported" | while read -r f; do
	echo "$declared" | grep -qx "$f" || echo "$f"; done)
if [ -z "$extra" ]; then
	echo "ok 3 - every exported function is declared in vp.h or vp/vp_layer.h"
else
	echo "not ok 3 - exported but not in vp.h or vp/vp_layer.h:" $extra
fi
