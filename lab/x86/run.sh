#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# x86 lab: capture real xentrace files from Debian's Xen (x86-64) booted
# under qemu-system-x86_64 TCG (-cpu qemu64,+svm,+npt: nested SVM emulated).
# Run as root on Debian bookworm; installs what it needs with apt.
#
# XLAB_XEN=4.20 (default): Debian 13 (trixie)'s Xen 4.20 hypervisor, tools and
# 6.12 kernel (their debs only downloaded and unpacked, lists used beside the
# host's: lab/trixie.sh), with xentrace built from xen-patches/4.20 (it writes
# the trace clock record), which needs XEN=/path/to/xen.git (RELEASE-4.20.4).
# XLAB_XEN=4.17: bookworm's Xen 4.17 and 6.1 kernel, Debian's own xentrace.
#
#   bash lab/x86/run.sh dom0      PV dom0 alone, countable hypercall/page-fault load
#   bash lab/x86/run.sh pvh       + PVH guest (xl create) running lab/x86/src/exits.c
#   bash lab/x86/run.sh hvm       + full HVM guest instead (hvmloader, SeaBIOS, qemu-system-xen)
#   bash lab/x86/run.sh fixtures  copy the last dom0/pvh results to tests/fixtures/x86/
#
# Results: lab/x86/work/<scenario>/{trace.bin,boot.log,check.txt}.
# Knobs (environment): XLAB_T (xentrace -T upper bound, s; the trace is stopped
# with SIGINT 0.2 s after the workload ends), XLAB_LOOPS (workload loops),
# XLAB_TIMEOUT (QEMU wall-clock limit, s), XLAB_READY (how long dom0 waits for
# the guest's workload to be ready, s of dom0 time), XLAB_DOM0_VCPUS (dom0's
# vCPUs: 1 by default for pvh, where a 2-vCPU 6.12 dom0 once oopsed on an int3
# in sched_clock_cpu while its boot patched that static key under TCG).  How it works: /work/shared/notes/x86-qemu-lab.md.
set -euo pipefail

LAB=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$LAB/../.." && pwd)
W=$LAB/work
XENVER=${XLAB_XEN:-4.20}
XEN=${XEN:-}
case $XENVER in
4.17)
    KVER=6.1.0-57-amd64
    DEBS="xen-hypervisor-$XENVER-amd64 xen-utils-$XENVER xen-utils-common xenstore-utils
          linux-image-$KVER busybox-static libxencall1 libxenevtchn1 libxenforeignmemory1
          libxengnttab1 libxenmisc$XENVER libxenstore4 libxentoollog1 libxentoolcore1
          libxendevicemodel1 libyajl2 libxenhypfs1 libext2fs2 qemu-system-xen"
    W=$LAB/work
    ;;
4.20)
    KVER=""             # trixie's, resolved in setup()
    DEBS="xen-hypervisor-4.20-amd64 xen-utils-4.20 xen-utils-common xenstore-utils
          busybox-static libc6 libxen-dev libxencall1 libxenevtchn1 libxenforeignmemory1
          libxengnttab1 libxenmisc4.20 libxenstore4 libxentoollog1 libxentoolcore1
          libxendevicemodel1 libyajl2 libxenhypfs1 libext2fs2t64 libcom-err2 liblzma5
          libuuid1 libzstd1 zlib1g libbz2-1.0 libncurses6 libtinfo6 libgcc-s1"
    W=$LAB/work/xen420
    ;;
*) echo "XLAB_XEN: 4.17 or 4.20" >&2; exit 2 ;;
esac
HOSTPKGS="qemu-system-x86 qemu-system-data seabios cpio kmod gcc libc6-dev python3 xz-utils
          binutils git"
. "$REPO/lab/trixie.sh"

log() { printf '[run.sh %s] %s\n' "$(date +%T)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

setup() {
    [ "$(id -u)" = 0 ] || die "run as root"
    local missing=""
    for p in $HOSTPKGS; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
    if [ -n "$missing" ]; then
        log "apt-get install$missing"
        apt-get -o DPkg::Lock::Timeout=900 update -q >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends $missing >/dev/null
    fi
    mkdir -p "$W/debs"
    if [ "$XENVER" = 4.20 ]; then
        setup_trixie
    elif [ ! -e "$W/ex/.done" ] || [ ! -e "$W/ex/usr/libexec/xen-qemu-system-i386" ]; then
        log "downloading Xen, kernel and tools .debs"
        (cd "$W/debs" && { apt-get download $DEBS >/dev/null 2>&1 ||
            { apt-get -o DPkg::Lock::Timeout=900 update -q >/dev/null && apt-get download $DEBS >/dev/null; }; })
        rm -rf "$W/ex"; mkdir -p "$W/ex"
        for f in "$W"/debs/*.deb; do dpkg-deb -x "$f" "$W/ex"; done
        touch "$W/ex/.done"
    fi
    [ -s "$W/xen.bin" ] || zcat "$W/ex/boot/xen-$XENVER-amd64.gz" > "$W/xen.bin"
    cp -u "$W/ex/boot/vmlinuz-$KVER" "$W/vmlinuz"
    # fixed, distinctive load addresses: check.py tells workload RIPs from busybox's
    gcc -static -O2 -Wall -Wl,-Ttext-segment=0x20000000 -o "$W/exits" "$LAB/src/exits.c"
    gcc -static -O2 -Wall -Wl,-Ttext-segment=0x10000000 -o "$W/hcall" "$LAB/src/hcall.c"
}

# Xen 4.20: trixie's debs, and xentrace from xen-patches/4.20 built against
# trixie's libxen-dev (only xentrace: the hypervisor and the rest are Debian's).
setup_trixie() {
    trixie_setup "$W/trixie" || die "trixie package lists"
    local kpkg
    kpkg=$(apt-cache $(trixie_apt_opts "$W/trixie") depends linux-image-amd64:amd64 2>/dev/null |
           sed -n 's/.*Depends: \(linux-image-[0-9][^:]*-amd64\).*/\1/p' | head -n1)
    [ -n "$kpkg" ] || die "cannot resolve trixie's amd64 kernel"
    KVER=${kpkg#linux-image-}
    if [ ! -e "$W/ex/.done-$KVER" ]; then
        log "downloading trixie's Xen 4.20, kernel $KVER and tools .debs"
        rm -f "$W"/trixie/debs/*.deb
        trixie_download "$W/trixie" $(for p in $DEBS $kpkg; do echo "$p:amd64"; done) ||
            die "download"
        trixie_unpack "$W/trixie" "$W/ex"
        cp "$W"/trixie/debs/*.deb "$W/debs/"
        touch "$W/ex/.done-$KVER"
    fi
    local series=$REPO/xen-patches/4.20 psum src=$W/xen-src
    psum=$( (cat "$series"/0*.patch) | sha256sum | cut -c1-16)
    if [ ! -x "$W/xentrace-$psum" ]; then
        [ -n "$XEN" ] || die "set XEN=/path/to/xen.git (RELEASE-4.20.4) for the series' xentrace"
        log "building xentrace from xen-patches/4.20"
        rm -rf "$src"
        git clone -q --shared --no-checkout "$XEN" "$src"
        git -C "$src" checkout -q --detach RELEASE-4.20.4
        git -C "$src" -c user.name=lab -c user.email=lab@invalid \
            am -q $(ls "$series"/0*.patch | grep -v cover-letter) || die "git am"
        mkdir -p "$W/inc/xen"
        cp "$src/xen/include/public/trace.h" "$W/inc/xen/"
        local L=$W/ex/usr/lib/x86_64-linux-gnu
        gcc -O2 -Wall -Werror -D__XEN_TOOLS__ -I"$W/inc" -I"$W/ex/usr/include" \
            -o "$W/xentrace-$psum" "$src/tools/xentrace/xentrace.c" \
            -L"$L" -Wl,-rpath-link,"$L" -lxenevtchn -lxenctrl || die "xentrace build"
    fi
    XENTRACE_BIN=$W/xentrace-$psum
}

# copy_elf ROOT FILE...: the files and every shared library they need into ROOT
copy_elf() {
    [ "$XENVER" = 4.20 ] && { copy_elf_trixie "$@"; return; }
    local root=$1 f lib; shift
    local lp="$W/ex/usr/lib/x86_64-linux-gnu:$W/ex/lib/x86_64-linux-gnu"
    mkdir -p "$root/usr/lib/x86_64-linux-gnu" "$root/lib64"
    for f in "$@"; do
        LD_LIBRARY_PATH=$lp ldd "$f" 2>/dev/null | awk '/=> \//{print $3} /^\t\/lib64/{print $1}' |
        while read -r lib; do
            case "$lib" in
            /lib64/*) cp -L "$lib" "$root/lib64/" ;;
            *) cp -L "$lib" "$root/usr/lib/x86_64-linux-gnu/" ;;
            esac
        done
    done
}

# Trixie's tools need trixie's glibc: walk NEEDED with readelf over the
# unpacked trixie tree, never the host's libraries.
copy_elf_trixie() {
    local root=$1 todo lib next L=$W/ex/usr/lib/x86_64-linux-gnu; shift
    mkdir -p "$root/usr/lib/x86_64-linux-gnu" "$root/lib64"
    cp -L "$W/ex/usr/lib64/ld-linux-x86-64.so.2" "$root/lib64/"
    todo="$*"
    while [ -n "$todo" ]; do
        next=""
        for lib in $(readelf -d $todo 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u); do
            [ -e "$root/usr/lib/x86_64-linux-gnu/$lib" ] && continue
            [ -e "$L/$lib" ] || die "library $lib not in the trixie debs"
            cp -L "$L/$lib" "$root/usr/lib/x86_64-linux-gnu/"
            next="$next $root/usr/lib/x86_64-linux-gnu/$lib"
        done
        todo=$next
    done
}

mkcpio() { (cd "$1" && find . | cpio -o -H newc --quiet | gzip -1) > "$2"; }

base_root() {
    local r=$1
    rm -rf "$r"; mkdir -p "$r"/{bin,dev,proc,sys,tmp,run,etc,lib/modules,usr/bin,usr/sbin,var}
    ln -s ../run "$r/var/run"
    cp "$W/ex/bin/busybox" "$r/bin/busybox" 2>/dev/null || cp "$W/ex/usr/bin/busybox" "$r/bin/busybox"
    echo "$XENVER" > "$r/etc/xlab-xenver"
    mknod -m 600 "$r/dev/console" c 5 1
    mknod -m 666 "$r/dev/null" c 1 3
}

# the kernel's module tree (trixie: merged /usr)
moddir() {
    if [ -d "$W/ex/lib/modules/$KVER" ]; then echo "$W/ex/lib/modules/$KVER/kernel"
    else echo "$W/ex/usr/lib/modules/$KVER/kernel"; fi
}

# modcp MODULE-PATH-WITHOUT-.ko DIR: plain .ko (4.20's kernel has .ko.xz)
modcp() {
    if [ -e "$1.ko" ]; then cp "$1.ko" "$2/"
    elif [ -e "$1.ko.xz" ]; then xz -dc "$1.ko.xz" > "$2/$(basename "$1").ko"
    else die "no module $1"; fi
}

build_domu() {
    local r=$W/root-domu
    base_root "$r"
    cp "$LAB/init-domu.sh" "$r/init"; chmod 755 "$r/init"
    cp "$W/exits" "$r/bin/exits"
    modcp "$(moddir)/arch/x86/kernel/msr" "$r/lib/modules/"
    mkcpio "$r" "$W/initrd-domu.cpio.gz"
}

build_dom0() {
    local mode=$1 r=$W/root-dom0 m x
    local md
    md=$(moddir)
    base_root "$r"
    cp "$LAB/init-dom0.sh" "$r/init"; chmod 755 "$r/init"
    cp "$W/hcall" "$r/usr/bin/hcall"
    local mods="drivers/virtio/virtio_ring drivers/virtio/virtio drivers/virtio/virtio_pci_legacy_dev
             drivers/virtio/virtio_pci_modern_dev drivers/virtio/virtio_pci"
    [ "$XENVER" = 4.20 ] && mods=""     # 6.12: virtio core and PCI built in
    for m in $mods drivers/block/virtio_blk \
             drivers/xen/xen-privcmd drivers/xen/xen-evtchn drivers/xen/xenfs/xenfs \
             drivers/xen/xen-gntdev drivers/xen/xen-gntalloc; do
        modcp "$md/$m" "$r/lib/modules"
    done
    mkdir -p "$r/usr/lib/xen-$XENVER/bin"
    local bins="xentrace"
    [ "$mode" != dom0 ] && bins="$bins xl xenstored xen-init-dom0 xenconsoled"
    for x in $bins; do cp "$W/ex/usr/lib/xen-$XENVER/bin/$x" "$r/usr/lib/xen-$XENVER/bin/"; done
    [ "$XENVER" = 4.20 ] && cp "$XENTRACE_BIN" "$r/usr/lib/xen-$XENVER/bin/xentrace"
    copy_elf "$r" "$r"/usr/lib/xen-$XENVER/bin/*
    if [ "$mode" != dom0 ]; then
        cp "$W/ex/usr/bin/xenstore" "$r/usr/bin/"
        for x in read write ls list; do ln -sf xenstore "$r/usr/bin/xenstore-$x"; done
        copy_elf "$r" "$W/ex/usr/bin/xenstore"
        if [ "$XENVER" = 4.20 ]; then
            cp -L "$W/ex/usr/lib/x86_64-linux-gnu/libgcc_s.so.1" "$r/usr/lib/x86_64-linux-gnu/"
        else
            cp -L /usr/lib/x86_64-linux-gnu/libgcc_s.so.1 "$r/usr/lib/x86_64-linux-gnu/"
        fi
        mkdir -p "$r/etc/xen" "$r/boot"
        cp "$W/ex/etc/xen/xl.conf" "$r/etc/xen/"
        sed "s/@LOOPS@/$LOOPS/" "$LAB/guest-$mode.cfg" > "$r/etc/xen/guest-$mode.cfg"
        cp "$W/vmlinuz" "$r/boot/vmlinuz"
        build_domu
        cp "$W/initrd-domu.cpio.gz" "$r/boot/"
    fi
    if [ "$mode" = hvm ]; then
        # device model (qemu-system-xen), hvmloader, SeaBIOS, QEMU's option ROMs
        mkdir -p "$r/usr/libexec" "$r/usr/lib/xen-$XENVER/boot" "$r/usr/share/seabios" "$r/usr/share/qemu"
        cp "$W/ex/usr/libexec/xen-qemu-system-i386" "$r/usr/libexec/"
        copy_elf "$r" "$r/usr/libexec/xen-qemu-system-i386"
        cp "$W/ex/usr/lib/xen-$XENVER/boot/hvmloader" "$r/usr/lib/xen-$XENVER/boot/"
        cp /usr/share/seabios/bios-256k.bin "$r/usr/share/seabios/"
        cp /usr/share/qemu/linuxboot_dma.bin /usr/share/qemu/linuxboot.bin /usr/share/qemu/kvmvapic.bin \
           "$r/usr/share/qemu/"
        cp -r /usr/share/qemu/keymaps "$r/usr/share/qemu/"   # "-vnc none" still loads en-us
    fi
    mkcpio "$r" "$W/initrd-dom0.cpio.gz"
}

# run_qemu MODE OUTDIR: boot Xen + dom0, timestamp the console, pull the trace off the disk
run_qemu() {
    local mode=$1 out=$2 t0 rc=0 now
    rm -rf "$out"; mkdir -p "$out"
    truncate -s 0 "$W/out.img"; truncate -s 256M "$W/out.img"
    t0=${EPOCHREALTIME/./}
    log "QEMU start ($mode), limit ${TIMEOUT}s"
    timeout "$TIMEOUT" qemu-system-x86_64 -accel tcg -cpu qemu64,+svm,+npt -smp 2 -m 2048 \
        -nographic -no-reboot -monitor none -pidfile "$W/qemu.pid" \
        -kernel "$W/xen.bin" \
        -append "console=com1 com1=115200,8n1 dom0_mem=768M,max:768M dom0_max_vcpus=$DOM0_VCPUS loglvl=all guest_loglvl=all noreboot" \
        -initrd "$W/vmlinuz console=hvc0 earlyprintk=xen rdinit=/init xlab=$mode xlab_t=$T xlab_loops=$LOOPS xlab_ready=$READY,$W/initrd-dom0.cpio.gz" \
        -drive file="$W/out.img",if=virtio,format=raw < /dev/null 2>&1 |
    while IFS= read -r line; do
        line=${line//$'\r'/}
        now=$(( ${EPOCHREALTIME/./} - t0 ))
        printf '[%4d.%03d] %s\n' $((now / 1000000)) $((now / 1000 % 1000)) "$line"
        case "$line" in
        *"Panic on CPU"*|*"Dom0 crashed"*|*"Kernel panic"*)
            sleep 3; kill "$(cat "$W/qemu.pid")" 2>/dev/null || true ;;
        esac
    done > "$out/boot.log" || rc=$?
    # drop SeaBIOS/QEMU terminal escapes (ESC c, ESC [ ... X) from the log
    sed -i 's/\x1bc//g; s/\x1b\[[0-9;?]*[A-Za-z]//g' "$out/boot.log"
    now=$(( ${EPOCHREALTIME/./} - t0 ))
    WALL=$((now / 1000000)).$((now / 100000 % 10))
    log "QEMU ended after ${WALL}s (pipeline rc $rc)"
    echo "$WALL" > "$out/wall-seconds"
    grep -q "LAB TRACE WRITTEN" "$out/boot.log" || die "no trace written; see $out/boot.log"
    local hdr sz md5
    hdr=$(head -c 512 "$W/out.img" | tr -d '\0')
    sz=$(echo "$hdr" | awk '/TRACELEN/{print $2}'); md5=$(echo "$hdr" | awk '/TRACELEN/{print $3}')
    dd if="$W/out.img" of="$out/trace.bin" bs=512 skip=1 status=none
    truncate -s "$sz" "$out/trace.bin"
    [ "$(md5sum < "$out/trace.bin" | cut -d' ' -f1)" = "$md5" ] || die "trace md5 mismatch"
    log "trace: $sz bytes, md5 $md5 (matches dom0)"
}

# TSC rate from Xen's "Detected NNNN.NNN MHz processor." line, in Hz
tsc_hz() { sed -n 's/.*(XEN) Detected \([0-9.]*\) MHz processor.*/\1/p' "$1" | head -1 | awk '{printf "%.0f", $1 * 1e6}'; }

scenario() {
    local mode=$1 out=$W/$1
    [ "$XENVER" = 4.20 ] && [ "$mode" = hvm ] &&
        die "hvm needs trixie's qemu-system-xen, not set up: use XLAB_XEN=4.17"
    setup
    log "building initramfs ($mode, xentrace -T $T, $LOOPS loops)"
    build_dom0 "$mode"
    run_qemu "$mode" "$out"
    python3 "$LAB/check.py" --domain 1 --cpu-hz "$(tsc_hz "$out/boot.log")" "$out/trace.bin" > "$out/check.txt"
    grep -E "\] (LAB|HCALL|EXITS|GUEST)|Detected .* MHz" "$out/boot.log" >&2 || true
    cat "$out/check.txt" >&2
    log "done: $out (QEMU wall ${WALL}s)"
}

fixtures() {
    local f=$REPO/tests/fixtures/x86 s name
    mkdir -p "$f"
    local v=${XENVER/./}
    for s in dom0 pvh; do
        case $s in dom0) name=x86-qemu-xen$v-pv-dom0 ;; pvh) name=x86-qemu-xen$v-pvh-svm ;; esac
        if [ "$XENVER" = 4.20 ] && [ ! -s "$W/$s/trace.bin" ]; then continue; fi
        [ -s "$W/$s/trace.bin" ] || die "no $W/$s/trace.bin; run: bash $0 $s"
        cp "$W/$s/trace.bin" "$f/$name.xentrace"
        cp "$W/$s/boot.log" "$f/$name.bootlog.txt"
        (cd "$f" && python3 "$LAB/check.py" --domain 1 --cpu-hz "$(tsc_hz "$name.bootlog.txt")" \
            "$name.xentrace" > "$name.check.txt")
        log "$name: $(wc -c < "$f/$name.xentrace") bytes"
    done
}

READY=${XLAB_READY:-1200}
case "${1:-}" in
pvh) DOM0_VCPUS=${XLAB_DOM0_VCPUS:-1} ;;
hvm) DOM0_VCPUS=${XLAB_DOM0_VCPUS:-2}; READY=${XLAB_READY:-1500} ;;
*)   DOM0_VCPUS=${XLAB_DOM0_VCPUS:-2} ;;
esac
case "${1:-}" in
dom0) T=${XLAB_T:-10}; LOOPS=${XLAB_LOOPS:-30}; TIMEOUT=${XLAB_TIMEOUT:-300}; scenario dom0 ;;
pvh)  T=${XLAB_T:-20}; LOOPS=${XLAB_LOOPS:-20}; TIMEOUT=${XLAB_TIMEOUT:-1800}; scenario pvh ;;
hvm)  T=${XLAB_T:-20}; LOOPS=${XLAB_LOOPS:-10}; TIMEOUT=${XLAB_TIMEOUT:-900}; scenario hvm ;;
fixtures) fixtures ;;
*) echo "usage: $0 dom0|pvh|hvm|fixtures" >&2; exit 2 ;;
esac
