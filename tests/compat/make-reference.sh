#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Makes tests/compat/expected/: what upstream xenalyze (Xen's
# tools/xentrace/xenalyze.c) prints for each option of
# tests/compat/options.txt on each real trace, reduced to the lines
# compared (tests/tools/compare-compat.py extract), xz-compressed above
# 16 KiB.  Run once when the options or traces change; the expected files
# are committed and tests/check/compat-options.sh compares with them.
#
#   UPSTREAM=path/to/xenalyze sh tests/compat/make-reference.sh
#   XEN=path/to/xen.git [REV=master] sh tests/compat/make-reference.sh
#
# With XEN, upstream is built from that repository's REV (a bare mirror
# will do) with gcc -O2, as Xen's tools build it but alone.  SHARED: the
# shared material (default ../shared).  SYNTH: xentrace-synth (default
# build/xentrace-synth), which makes the synthetic traces of
# tests/compat/*.scn for tests/compat/options-NAME.txt (NAME.scn's own
# list, else options-synth.txt), at 2.4 GHz.  ONLY=NAME: that trace or
# synth-NAME alone; NAMES="A B": those options alone.
# The symbol file has no newline at
# its end: upstream's reader takes a last empty line for a symbol at
# 0xdeadbeef and stops ("not properly ordered").
set -eu
SHARED=${SHARED:-../shared}
T=$SHARED/traces
OUT=tests/compat/expected
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -z "${UPSTREAM:-}" ]; then
    [ -n "${XEN:-}" ] || { echo "UPSTREAM=binary or XEN=repository"; exit 1; }
    rev=${REV:-master}
    mkdir -p "$tmp/src"
    git --git-dir="$XEN" archive "$rev" tools/xentrace xen/include/public \
        tools/include | tar -x -C "$tmp/src"
    mkdir -p "$tmp/src/inc"
    ln -s ../xen/include/public "$tmp/src/inc/xen"
    (cd "$tmp/src" && gcc -O2 -w -Iinc -Itools/include -D__XEN_TOOLS__ \
        -o ../xenalyze tools/xentrace/xenalyze.c tools/xentrace/mread.c)
    UPSTREAM=$tmp/xenalyze
    echo "upstream built from $XEN $rev ($(git --git-dir="$XEN" rev-parse "$rev"))"
fi

# One trace: the options of $3 on trace $1 (name $2) at rate $4.
reference() {
    path=$1 name=$2 list=$3 hz=$4
    mkdir -p "$OUT/$name"
    grep -v '^#' "$list" | while read -r n kind opts; do
        [ -n "$n" ] || continue
        case " ${NAMES:-$n} " in *" $n "*) ;; *) continue ;; esac
        opts=$(echo "$opts" | sed "s|\$SYM|$SYM|g")
        # shellcheck disable=SC2086
        timeout 300 "$UPSTREAM" --cpu-hz="$hz" $opts "$path" \
            > "$tmp/out" 2> /dev/null || {
            echo "$name $n: upstream failed ($?)"; continue; }
        python3 tests/tools/compare-compat.py extract "$kind" \
            < "$tmp/out" > "$tmp/part"
        rm -f "$OUT/$name/$n.txt" "$OUT/$name/$n.txt.xz"
        if [ "$(wc -c < "$tmp/part")" -gt 16384 ]; then
            xz -9 -c "$tmp/part" > "$OUT/$name/$n.txt.xz"
        else
            cp "$tmp/part" "$OUT/$name/$n.txt"
        fi
        echo "$name $n: $(wc -l < "$tmp/part") lines"
    done
}

# Traces and the rate upstream is given (x86 VMX: its default, 2.4 GHz).
traces="x86-vmx-credit2-8cpu:2.4G x86-qemu-pv-dom0:2299.999M
arm64-qemu-credit2-2dom:62.5M"
SYM=tests/compat/symbols.map
for tr in $traces; do
    [ -z "${ONLY:-}" ] || [ "$ONLY" = "${tr%%:*}" ] || continue
    reference "$T/${tr%%:*}.xentrace" "${tr%%:*}" tests/compat/options.txt \
        "${tr#*:}"
done
SYNTH=${SYNTH:-build/xentrace-synth}
for scn in tests/compat/*.scn; do
    name=synth-$(basename "$scn" .scn)
    [ -z "${ONLY:-}" ] || [ "$ONLY" = "$name" ] || continue
    list=tests/compat/options-$(basename "$scn" .scn).txt
    [ -f "$list" ] || list=tests/compat/options-synth.txt
    "$SYNTH" -s "$scn" -o "$tmp/$name.xentrace"
    # The trace these outputs are upstream's reading of (compat-options.sh
    # checks that xentrace-synth still makes it).
    mkdir -p "tests/compat/expected/$name"
    cksum < "$tmp/$name.xentrace" > "tests/compat/expected/$name/trace.cksum"
    reference "$tmp/$name.xentrace" "$name" "$list" 2.4G
done
