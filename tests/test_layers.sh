#!/bin/sh
# test_layers.sh - the source tree's layers include only downward
# (docs/design.md, "The layers"). Every #include "..." (and <...> of a
# header in include/) of every .c and .h file is resolved to a file of the
# tree as the Makefile's -I flags would find it, and:
#   1. no file includes a file of a higher layer. From the bottom:
#      include/ (the public headers), topology/, runtime/, collectives/,
#      mpi/, apps/, then bench/ and tests/ at the top;
#   2. collectives/ takes from runtime/ one header alone, the seam
#      runtime/coll_seam.h (what it includes comes with it);
#   3. a header of one of runtime's folders (model/, trace/, threads/,
#      mpi/) does not include runtime/runtime.h, which includes them, and
#      no file of the transports (threads/, mpi/) includes it at all;
#   4. no header includes itself through others (no include cycle). One
#      pair is meant: include/vp.h ends by including include/vp/vp_layer.h
#      (so that vp.h declares the whole API), which includes vp.h for its
#      types; the include guards make either order work.
# TAP output; run by make check (from any folder: it reads the tree it
# lies in).
cd "$(dirname "$0")/.." || exit 1
. tests/tap.sh

# "FILE TARGET" for every include of the tree's own files
edges=$(find include topology runtime collectives mpi apps bench tests \
	-name '*.[ch]' | LC_ALL=C sort | awk '
function norm(p,   n, i, k, part, out) {
	n = split(p, part, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (part[i] == "." || part[i] == "")
			continue
		if (part[i] == ".." && k > 0 && out[k] != "..") {
			k--
			continue
		}
		out[++k] = part[i]
	}
	p = ""
	for (i = 1; i <= k; i++)
		p = p (i > 1 ? "/" : "") out[i]
	return p
}
function exists(p,   line, r) {
	if (p in seen)
		return seen[p]
	r = (getline line < p) >= 0
	if (r)
		close(p)
	seen[p] = r
	return r
}
# The -I flags of the Makefile: -Iinclude everywhere; -I. -Ibench for the
# tools; -I. -Itopology -Itests for the tests.
function resolve(from, name, quoted,   dir, c, n, i, cand) {
	dir = from
	sub(/\/[^\/]*$/, "", dir)
	n = 0
	if (quoted)
		cand[++n] = dir "/" name
	cand[++n] = "include/" name
	if (from ~ /^(bench|tests)\//) {
		cand[++n] = name
		cand[++n] = "bench/" name
		cand[++n] = "topology/" name
		cand[++n] = "tests/" name
	}
	for (i = 1; i <= n; i++) {
		c = norm(cand[i])
		if (exists(c))
			return c
	}
	return ""
}
{
	file = $0
	while ((getline line < file) > 0) {
		if (line !~ /^[ \t]*#[ \t]*include[ \t]*["<]/)
			continue
		quoted = line ~ /#[ \t]*include[ \t]*"/
		name = line
		sub(/^[^"<]*["<]/, "", name)
		sub(/[">].*$/, "", name)
		t = resolve(file, name, quoted)
		if (t != "")
			print file, t
	}
	close(file)
}')

# 1. A layer is a folder's rank from the bottom.
up=$(echo "$edges" | awk '
function layer(p) {
	if (p ~ /^include\//) return 0
	if (p ~ /^topology\//) return 1
	if (p ~ /^runtime\//) return 2
	if (p ~ /^collectives\//) return 3
	if (p ~ /^mpi\//) return 4
	if (p ~ /^apps\//) return 5
	return 6
}
NF == 2 && layer($2) > layer($1) { print $1 " includes " $2 ";" }')
if [ -z "$up" ]; then
	ok "no file includes a higher layer (runtime/ never includes collectives/)"
else
	notok "upward includes:"
	echo "$up" | sed 's/^/#   /'
fi

seam=$(echo "$edges" | awk '$1 ~ /^collectives\// && $2 ~ /^runtime\// &&
	$2 != "runtime/coll_seam.h" { print $1 " includes " $2 ";" }')
if [ -z "$seam" ]; then
	ok "collectives/ takes from runtime/ only the seam runtime/coll_seam.h"
else
	notok "collectives/ includes runtime/ past the seam:"
	echo "$seam" | sed 's/^/#   /'
fi

core=$(echo "$edges" | awk '$2 == "runtime/runtime.h" &&
	($1 ~ /^runtime\/[a-z_]+\/.*\.h$/ || $1 ~ /^runtime\/(threads|mpi)\//) {
	print $1 " includes " $2 ";" }')
if [ -z "$core" ]; then
	ok "no header of runtime's folders, no transport file includes runtime/runtime.h"
else
	notok "files that include runtime.h from below it:"
	echo "$core" | sed 's/^/#   /'
fi

# Cycles: a depth-first walk of the headers' include graph.
cycles=$(echo "$edges" | awk '
$1 == "include/vp/vp_layer.h" && $2 == "include/vp.h" { next }
$1 ~ /\.h$/ && $2 ~ /\.h$/ { out[$1] = out[$1] " " $2; node[$1]; node[$2] }
function walk(v, path,   n, i, w, list) {
	state[v] = 1
	n = split(out[v], list, " ")
	for (i = 1; i <= n; i++) {
		w = list[i]
		if (state[w] == 1)
			print path " -> " w ";"
		else if (!state[w])
			walk(w, path " -> " w)
	}
	state[v] = 2
}
END { for (v in node) if (!state[v]) walk(v, v) }')
if [ -z "$cycles" ]; then
	ok "no include cycle among the headers"
else
	notok "include cycles:"
	echo "$cycles" | sed 's/^/#   /'
fi

# The check itself: it sees the includes it must judge.
echo "$edges" | grep -q '^collectives/coll.h include/vp.h$' &&
	echo "$edges" | grep -q '^runtime/runtime.h runtime/transport.h$'
check $? "the includes were read ($(echo "$edges" | wc -l) of the tree's own files)"

echo "1..$n"
[ "$fail" = 0 ]
