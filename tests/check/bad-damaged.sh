#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Damaged variants of two real traces, made at test time by
# tests/tools/trace-mangle.py (truncations at many offsets, bit flips,
# noise, spliced unknown records, absurd CPU numbers and window sizes,
# garbage at the start, inputs with nothing readable).  For each one,
# --dump-all and --summary --format=json must finish within 20 s, without
# a signal or a sanitizer report, with status 0 (or 1 and the one-line
# "no valid trace record" error when nothing was readable), still show at
# least the records the manifest promises, and print JSON that parses.
# The dump streamed from standard input must equal the dump of the file.
set -u
. tests/check/lib.sh
need_shared
need_python

nr=0
bad=0
fail() { echo "FAIL: $*"; bad=$((bad + 1)); }

# check_run NAME MODE: the status and stderr of the run in $TMP/{rc,err}.
check_run() {
    rc=$(cat "$TMP/rc")
    if grep -qE 'Sanitizer|runtime error:|LeakSanitizer' "$TMP/err"; then
        fail "$1 $2: sanitizer report"; head -20 "$TMP/err"; return 1
    fi
    case $rc in
    0) return 0 ;;
    1)
        if [ "$3" -eq 0 ] &&
           head -1 "$TMP/err" | grep -q ': no valid trace record in the input$'
        then
            return 0
        fi
        fail "$1 $2: status 1"; head -3 "$TMP/err"; return 1 ;;
    124) fail "$1 $2: timeout" ; return 1 ;;
    *) fail "$1 $2: status $rc"; tail -5 "$TMP/err"; return 1 ;;
    esac
}

for trace in x86-vmx-credit2-8cpu arm64-qemu-credit2-2dom; do
    src=$T/$trace.xentrace
    [ -f "$src" ] || { echo "no $src"; exit 77; }
    dir=$TMP/$trace
    python3 tests/tools/trace-mangle.py mangle "$src" "$dir" || exit 1
    while read -r name want; do
        f=$dir/$name
        nr=$((nr + 1))
        timeout 20 "$XA" --dump-all "$f" > "$TMP/out" 2> "$TMP/err"
        echo $? > "$TMP/rc"
        if check_run "$trace/$name" dump "$want"; then
            lines=$(wc -l < "$TMP/out")
            if [ "$lines" -lt "$want" ]; then
                fail "$trace/$name dump: $lines lines, want >= $want"
            fi
            # Streamed from standard input: the same records.
            mv "$TMP/out" "$TMP/out-file"
            rc_file=$(cat "$TMP/rc")
            timeout 20 "$XA" --dump-all - < "$f" > "$TMP/out" 2> "$TMP/err"
            echo $? > "$TMP/rc"
            if check_run "$trace/$name" stdin "$want"; then
                [ "$(cat "$TMP/rc")" = "$rc_file" ] ||
                    fail "$trace/$name stdin: status differs from the file's"
                cmp -s "$TMP/out" "$TMP/out-file" ||
                    fail "$trace/$name stdin: dump differs from the file's"
            fi
        fi
        timeout 20 "$XA" --summary --format=json "$f" > "$TMP/out" \
            2> "$TMP/err"
        echo $? > "$TMP/rc"
        if check_run "$trace/$name" json "$want" &&
           [ "$(cat "$TMP/rc")" -eq 0 ] &&
           ! python3 -c 'import json,sys; json.load(sys.stdin)' \
               < "$TMP/out" 2> "$TMP/jerr"; then
            fail "$trace/$name json: does not parse"; tail -1 "$TMP/jerr"
        fi
        rm -f "$f"
    done < "$dir/manifest"
    rm -rf "$dir"
done
echo "$nr damaged inputs, $bad failures"
[ "$bad" -eq 0 ]
