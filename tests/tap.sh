# tap.sh - TAP output for the shell tests (sourced): ok, notok and check
# (ok when its first argument, an exit status, is 0) number the checks;
# the script ends with: echo "1..$n"; [ "$fail" = 0 ].
# A script that runs only some of its checks sets tap_skip_mark to a file:
# when that file exists, the next check is reported "# SKIP not selected"
# whatever its status, and the file removed.
n=0
fail=0
tap_skip_mark=
tap_skip() {
	[ -n "$tap_skip_mark" ] && [ -e "$tap_skip_mark" ] || return 1
	rm -f "$tap_skip_mark"
	echo "ok $n - $(printf '%s\n' "$1" | head -n 1 | cut -c 1-200) # SKIP not selected"
}
ok() { n=$((n + 1)); tap_skip "$1" || echo "ok $n - $1"; }
notok() {
	n=$((n + 1))
	tap_skip "$1" && return
	fail=$((fail + 1))
	echo "not ok $n - $1"
}
check() { if [ "$1" = 0 ]; then ok "$2"; else notok "$2"; fi; }
