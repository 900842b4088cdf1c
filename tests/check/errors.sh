# SPDX-License-Identifier: GPL-2.0-only
# Errors say why: strerror()'s text and the path, a directory named as one,
# a full disk on standard output; and the option papercuts of issue 16
# (--timer-hz named as such, --cpu-hz=1e9, --format only with the summary,
# a forced --svm-mode against the trace's own evidence).
. tests/check/lib.sh
F=tests/fixtures/x86/x86-qemu-xen417-pvh-svm.xentrace
fail() { echo "FAIL: $*"; exit 1; }
expect_err() {          # expect_err WANT CMD...: status 1, WANT on stderr
    want=$1; shift
    "$@" > "$TMP/out" 2> "$TMP/err" && fail "$*: status 0"
    grep -qF -- "$want" "$TMP/err" || { cat "$TMP/err"; fail "$*: no '$want'"; }
}
expect_err "xenalyze: $TMP/none: No such file or directory" $XA "$TMP/none"
expect_err "xenalyze: $TMP: Is a directory" $XA "$TMP"
expect_err "xenalyze diff: $TMP/none: No such file or directory" \
    $XA diff "$TMP/none" "$F"
if [ "$(id -u)" != 0 ]; then
    cp "$F" "$TMP/locked"; chmod 000 "$TMP/locked"
    expect_err "xenalyze: $TMP/locked: Permission denied" $XA "$TMP/locked"
fi
if [ -w /dev/full ]; then
    expect_err "xenalyze: standard output: No space left on device" \
        sh -c "$XA $F > /dev/full"
fi
expect_err "xentrace-synth: $TMP/no/dir/x: No such file or directory" \
    $SYNTH -s examples/demo.scn -o "$TMP/no/dir/x"
for m in --count --dump-all; do
    expect_err "--format=json is the summary's format" \
        $XA $m --format=json "$F"
done

$XA --timer-hz=62.5M "$F" | grep -qx "Clock: 62.500000 MHz (from --timer-hz)" ||
    fail "--timer-hz not named"
$XA --cpu-hz=2.1e9 "$F" | grep -qx "Clock: 2100.000000 MHz (from --cpu-hz)" ||
    fail "--cpu-hz=2.1e9"

# An SVM trace read as VMX: warned on stderr and in the summary.
$XA --vmx-mode "$F" > "$TMP/out" 2> "$TMP/err" || fail "--vmx-mode status"
grep -q "^xenalyze: warning: --vmx-mode given, but the trace's own evidence says SVM: exit code 0x" "$TMP/err" ||
    { cat "$TMP/err"; fail "no --vmx-mode warning"; }
grep -q "HVM exits read as VMX: --vmx-mode given, but the trace's own evidence says SVM" "$TMP/out" ||
    fail "no doubt in the summary"
# Forced as it is: no warning.
$XA --svm-mode "$F" 2> "$TMP/err" > /dev/null || fail "--svm-mode status"
[ ! -s "$TMP/err" ] || { cat "$TMP/err"; fail "--svm-mode on SVM warned"; }
# A VMX trace read as SVM.
$SYNTH -s examples/vmx.scn -o "$TMP/vmx.xentrace" > /dev/null || fail synth
$XA --svm-mode -a "$TMP/vmx.xentrace" 2> "$TMP/err" > /dev/null || fail "-a"
grep -q "warning: --svm-mode given, but the trace's own evidence says VMX: all [0-9]* exit codes are VMX exit reasons" "$TMP/err" ||
    { cat "$TMP/err"; fail "no --svm-mode warning"; }
# The subcommands' options come from their tables: the options of the man
# page's DIFF and MERGE sections are those --help lists (status 0), but
# --window-rule, the summary's option named in MERGE; one that is not in
# the table is refused with the usage (status 1).
for sub in diff merge; do
    $XA $sub --help > "$TMP/help" 2> "$TMP/err" || fail "$sub --help status"
    grep -q "^Usage: xenalyze $sub " "$TMP/help" || fail "$sub --help usage"
    U=$(echo $sub | tr a-z A-Z)
    opts=$(sed -n "/^\.SH $U\$/,/^\.SH /p" docs/xenalyze.1 |
           sed 's/\\-/-/g' | grep -o '\\fB--[a-z-]*' | sed 's/\\fB//' |
           grep -v -e '--window-rule$' | sort -u)
    listed=$(sed -n 's/^ *\(--[a-z-]*\).*/\1/p' "$TMP/help" |
             grep -v -e '--help$' | sort -u)
    [ -n "$opts" ] && [ "$opts" = "$listed" ] ||
        fail "$sub: the man page names $(echo $opts), --help $(echo $listed)"
    expect_err "Usage: xenalyze $sub" $XA $sub --no-such-option A B
done
expect_err "xenalyze diff: --map=1: expected A:B[,A:B]" $XA diff --map=1 "$F" "$F"
expect_err "xenalyze merge: --group: domain or host" $XA merge --group=x a.json
echo "errors ok"
