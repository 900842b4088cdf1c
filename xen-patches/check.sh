#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Check the Xen patch series of xen-patches/: each applies with `git am` onto
# its base commit (xen-patches/<series>/BASE), the hypervisor builds with
# Xen's -Werror in every configuration below, and the patched tools build:
# xenalyze (linked, then run on every fixture of tests/fixtures at the
# default tolerance and at --tolerance=6) and xentrace (compiled).
#
# Run by hand (CI has no Xen tree), as root on Debian 12 x86-64 from the
# repository root:
#   make xen-patches-check XEN=/path/to/xen.git     # or: bash xen-patches/check.sh
#
# Settings (environment):
#   XEN      a Xen git repository holding the base commits (bare or not; it
#            is only read: the series are applied in shared clones)
#   SERIES   series to check (default: master 4.20)
#   CONFIGS  hypervisor builds (default: all of them):
#              arm64          defconfig
#              arm64-notrace  defconfig + EXPERT, TRACEBUFFER=n
#              arm64-release  defconfig + EXPERT, DEBUG=n, IOREQ_SERVER=y
#                             (arm/ioreq.c), NEW_VGIC=y
#              arm32          defconfig (arm32)
#              x86_64         defconfig
#            none: no hypervisor build (the tools and the fixture runs only:
#            make xen-patches-upstream-check)
#   WORK     scratch directory (default /tmp/xen-patches-check)
#   JOBS     make -j (default 2)
#
# Output: a table on stdout and in $WORK/summary.txt, logs in $WORK/<series>/.
# Exit status 0 when every step passed.
set -u

# Settings may also be given as arguments: check.sh XEN=/path SERIES=4.20
for a in "$@"; do
    case $a in
    XEN=*|SERIES=*|CONFIGS=*|WORK=*|JOBS=*) export "${a%%=*}=${a#*=}" ;;
    *) echo "usage: $0 [XEN=path] [SERIES=...] [CONFIGS=...] [WORK=dir] [JOBS=n]" >&2; exit 2 ;;
    esac
done

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
XEN=${XEN:-}
SERIES=${SERIES:-master 4.20}
CONFIGS=${CONFIGS:-arm64 arm64-notrace arm64-release arm32 x86_64}
WORK=${WORK:-/tmp/xen-patches-check}
JOBS=${JOBS:-2}
T0=$(date +%s)

log() { printf '[check %4ds] %s\n' $(( $(date +%s) - T0 )) "$*" >&2; }
die() { log "ERROR: $*"; exit 2; }

[ -n "$XEN" ] || die "set XEN=/path/to/xen.git"
git -C "$XEN" rev-parse --git-dir >/dev/null 2>&1 || die "$XEN is not a git repository"

# Tools: the cross compilers and what Xen's build needs.
PKGS="gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu gcc-arm-linux-gnueabihf
  binutils-arm-linux-gnueabihf gcc libc6-dev make bison flex python3 git"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    [ "$(id -u)" = 0 ] || die "missing packages:$missing (run as root to install them)"
    log "installing:$missing"
    apt-get -o DPkg::Lock::Timeout=900 update -q >/dev/null 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends \
        $missing >/dev/null 2>&1 || die "apt-get install$missing"
fi

mkdir -p "$WORK"
SUMMARY=$WORK/summary.txt
: > "$SUMMARY"
FAILED=0
result() {      # series, step, status, seconds, note
    printf '%-7s %-28s %-5s %5ss  %s\n' "$1" "$2" "$3" "$4" "$5" | tee -a "$SUMMARY"
    [ "$3" = ok ] || FAILED=1
}

config_lines() {    # the .config lines a configuration adds to defconfig
    case $1 in
    arm64-notrace) printf 'CONFIG_EXPERT=y\n# CONFIG_TRACEBUFFER is not set\n' ;;
    arm64-release) printf 'CONFIG_EXPERT=y\nCONFIG_UNSUPPORTED=y\n# CONFIG_DEBUG is not set\nCONFIG_IOREQ_SERVER=y\nCONFIG_NEW_VGIC=y\n' ;;
    esac
}

build_xen() {       # series, src, config
    local s=$1 src=$2 c=$3 arch cross="" O=$WORK/$1/build-$3 t rc
    case $c in
    arm64*) arch=arm64; cross=aarch64-linux-gnu- ;;
    arm32) arch=arm32; cross=arm-linux-gnueabihf- ;;
    x86_64) arch=x86_64 ;;
    *) result "$s" "xen $c" FAIL 0 "unknown configuration"; return ;;
    esac
    rm -rf "$O" && mkdir -p "$O"
    t=$(date +%s)
    local M="make -C $src/xen O=$O XEN_TARGET_ARCH=$arch CROSS_COMPILE=$cross"
    (
        set -e
        $M defconfig
        extra=$(config_lines "$c")
        if [ -n "$extra" ]; then
            printf '%s\n' "$extra" >> "$O/.config"
            $M olddefconfig
            # Every requested setting must have survived olddefconfig.
            printf '%s\n' "$extra" | while read -r line; do
                grep -qxF "$line" "$O/.config" || { echo "lost: $line"; exit 1; }
            done
        fi
        nice -n 10 $M -j"$JOBS"
    ) > "$WORK/$s/xen-$c.log" 2>&1
    rc=$?
    local note
    note=$(grep -E '^CONFIG_(DEBUG|TRACEBUFFER|NEW_VGIC|IOREQ_SERVER)=' "$O/.config" 2>/dev/null |
           sed 's/^CONFIG_//' | tr '\n' ' ')
    note="$note$(grep -cE '\.[chS]:[0-9]+(:[0-9]+)?: warning:' "$WORK/$s/xen-$c.log") compiler warnings"
    if [ $rc = 0 ] && [ -f "$O/xen" ]; then
        result "$s" "xen $c" ok $(( $(date +%s) - t )) "$note"
    else
        result "$s" "xen $c" FAIL $(( $(date +%s) - t )) "see $WORK/$s/xen-$c.log"
    fi
}

# Headers as a tools build would see them: <xen/...> = the patched public
# headers, plus the generated xen/foreign/*.h that xenctrl.h includes.
tools_headers() {   # src, dir
    local src=$1 inc=$2 R=$1/xen/include/public a
    rm -rf "$inc" && mkdir -p "$inc/xen/foreign"
    for a in "$R"/*.h "$R"/*/; do ln -s "${a%/}" "$inc/xen/"; done
    (
        cd "$inc/xen/foreign" || exit 1
        for a in arm32 arm64; do
            python3 "$src/tools/include/xen-foreign/mkheader.py" $a $a.h \
                "$R/arch-arm.h" "$R/xen.h" || exit 1
        done
        for a in x86_32 x86_64; do
            python3 "$src/tools/include/xen-foreign/mkheader.py" $a $a.h \
                "$R/arch-x86/xen-$a.h" "$R/arch-x86/xen.h" "$R/xen.h" || exit 1
        done
        sed -i 's/(__align8__ \(uint64_t\))/(\1)/g' ./*.h
    )
}

for s in $SERIES; do
    D=$TOP/xen-patches/$s
    [ -f "$D/BASE" ] || { result "$s" "series" FAIL 0 "no $D/BASE"; continue; }
    BASE=$(head -n1 "$D/BASE" | cut -d' ' -f1)
    SRC=$WORK/$s/src
    rm -rf "$WORK/$s" && mkdir -p "$WORK/$s"
    t=$(date +%s)
    if ! git clone -q --shared --no-checkout "$XEN" "$SRC" ||
       ! git -C "$SRC" checkout -q --detach "$BASE" 2>"$WORK/$s/checkout.log"; then
        result "$s" "checkout ${BASE:0:10}" FAIL 0 "base not in $XEN"
        continue
    fi
    PATCHES=$(ls "$D"/[0-9][0-9][0-9][0-9]-*.patch | grep -v /0000-cover-letter.patch)
    n=$(echo "$PATCHES" | wc -l)
    if git -C "$SRC" -c user.name=check -c user.email=check@invalid \
           am -q $PATCHES > "$WORK/$s/am.log" 2>&1; then
        result "$s" "git am ($n patches)" ok $(( $(date +%s) - t )) "onto ${BASE:0:10} ($(git -C "$SRC" describe --tags --always "$BASE" 2>/dev/null))"
    else
        result "$s" "git am ($n patches)" FAIL $(( $(date +%s) - t )) "see $WORK/$s/am.log"
        continue
    fi

    for c in $CONFIGS; do
        [ "$c" = none ] && continue
        log "$s: building the hypervisor, $c"
        build_xen "$s" "$SRC" "$c"
    done

    # Tools: xenalyze links on its own; xentrace needs libxenctrl to link, so
    # it is compiled only (the labs link it against Debian's libraries).
    tools_headers "$SRC" "$WORK/$s/inc"
    TW="-O2 -Wall -Werror -Wno-unused-but-set-variable -Wno-unused-local-typedefs"
    t=$(date +%s)
    if gcc $TW -I"$WORK/$s/inc" -I"$SRC/tools/include" \
           -o "$WORK/$s/xenalyze" "$SRC/tools/xentrace/xenalyze.c" \
           "$SRC/tools/xentrace/mread.c" > "$WORK/$s/xenalyze-build.log" 2>&1; then
        result "$s" "tools: xenalyze" ok $(( $(date +%s) - t )) "gcc -Werror"
    else
        result "$s" "tools: xenalyze" FAIL $(( $(date +%s) - t )) "see $WORK/$s/xenalyze-build.log"
    fi
    t=$(date +%s)
    if gcc $TW -D__XEN_TOOLS__ -I"$WORK/$s/inc" -I"$SRC/tools/include" \
           -c -o "$WORK/$s/xentrace.o" "$SRC/tools/xentrace/xentrace.c" \
           > "$WORK/$s/xentrace-build.log" 2>&1; then
        result "$s" "tools: xentrace (compile)" ok $(( $(date +%s) - t )) "gcc -Werror -c"
    else
        result "$s" "tools: xentrace (compile)" FAIL $(( $(date +%s) - t )) "see $WORK/$s/xentrace-build.log"
    fi

    # The patched xenalyze reads every Arm fixture, and the x86 ones of Xen
    # 4.20, to the end.  (The SVM traces of Xen 4.17 use the VMX exit ids,
    # which stops any xenalyze at the default tolerance: not this series'.)
    [ -x "$WORK/$s/xenalyze" ] || continue
    for f in "$TOP"/tests/fixtures/arm64/*.xentrace "$TOP"/tests/fixtures/x86/*xen420*.xentrace; do
        [ -f "$f" ] || continue
        for tol in "" --tolerance=6; do
            t0=$(date +%s.%N)
            timeout 120 "$WORK/$s/xenalyze" --summary $tol "$f" \
                > "$WORK/$s/run.out" 2> "$WORK/$s/run.err"
            rc=$?
            secs=$(python3 -c "print('%.1f' % ($(date +%s.%N) - $t0))")
            rate=$(sed -n 's/^Total time: .*(using cpu speed \(.*\))$/\1/p' "$WORK/$s/run.out")
            name="$(basename "$f" .xentrace)${tol:+ $tol}"
            if [ $rc = 0 ] && grep -q "^Total time" "$WORK/$s/run.out"; then
                result "$s" "xenalyze ${tol:-default}" ok "${secs%.*}" "$(basename "$f"): $secs s, $rate"
            else
                result "$s" "xenalyze ${tol:-default}" FAIL "${secs%.*}" "$name: rc $rc: $(grep -m1 -E 'FATAL|ERROR' "$WORK/$s/run.err")"
            fi
        done
    done
done

log "done in $(( $(date +%s) - T0 )) s: $( [ $FAILED = 0 ] && echo "all passed" || echo "FAILURES")"
exit $FAILED
