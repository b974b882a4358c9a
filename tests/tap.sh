# tap.sh - TAP output for the shell tests (sourced): ok, notok and check
# (ok when its first argument, an exit status, is 0) number the checks;
# the script ends with: echo "1..$n"; [ "$fail" = 0 ].
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"; }
check() { if [ "$1" = 0 ]; then ok "$2"; else notok "$2"; fi; }
