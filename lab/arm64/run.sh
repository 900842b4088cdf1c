#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# One-command arm64 lab on Xen 4.20: build Xen RELEASE-4.20.4 with
# xen-patches/4.20 (the Arm guest exit records of docs/arm-trace-events.md),
# and that series' xentrace, boot them under qemu-system-aarch64 (TCG) with
# Debian 13 (trixie)'s 6.12 kernel as dom0 and as a dom0less domU, capture a
# trace, bring it and the boot log out and cross-check it with check.py.
#
# Usage (as root on Debian 12, from the repository root):
#   make lab-arm64 XEN=/path/to/xen.git
#   XEN=/path/to/xen.git NAME=credit SCHED=credit bash lab/arm64/run.sh
#
# Settings (environment):
#   XEN         a Xen git repository holding RELEASE-4.20.4 (only read)
#   NAME        output name under $WORK/out/ (default: default)
#   SCHED       Xen scheduler: credit2 (default) or credit
#   DOMU        1 = boot a dom0less domU (default), 0 = dom0 only
#   WORKLOAD    busy (default: hypercalls, injected aborts, MMIO, IPIs, disk
#               I/O, sleeps), mixed (busy + one PSCI CPU off/on cycle of dom0's
#               CPU 1: slow under TCG, a minute on a loaded host) or burn
#               (busy, and the domU spins)
#   TRACE_SECS  xentrace -T (guest seconds, default 3)
#   EVMASK      xentrace -e (default all)
#   XENTRACE_EXTRA  more xentrace options (default "-S 256": 1 MiB per pCPU;
#               "-S 1 -s 1000" loses records)
#   PRE_SLEEP   seconds dom0 waits before tracing so the domU is up (default 8)
#   XEN_EXTRA   more Xen command line options
#   QEMU_TIMEOUT  seconds QEMU may run (default 1200; a loaded host needs more)
#   WORK        work directory (default lab/arm64/work, git-ignored)
#
# Outputs: $WORK/out/$NAME/{trace.xentrace,boot.log,info.txt,check.txt,check.json}
# Background: ../shared/notes/arm64-qemu-lab.md, ../shared/notes/xen420-qemu-lab.md.
set -euo pipefail

LAB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$LAB/../.." && pwd)
WORK=${WORK:-$LAB/work}
XEN=${XEN:-}
NAME=${NAME:-default}
SCHED=${SCHED:-credit2}
DOMU=${DOMU:-1}
WORKLOAD=${WORKLOAD:-busy}
TRACE_SECS=${TRACE_SECS:-3}
EVMASK=${EVMASK:-all}
XENTRACE_EXTRA=${XENTRACE_EXTRA:--S 256}
PRE_SLEEP=${PRE_SLEEP:-8}
XEN_EXTRA=${XEN_EXTRA:-}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-1200}
SERIES=$TOP/xen-patches/4.20
XEN_TAG=RELEASE-4.20.4
T0=$(date +%s)

log() { printf '[lab %4ds] %s\n' $(( $(date +%s) - T0 )) "$*"; }
die() { log "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (apt-get)"
command -v apt-get >/dev/null || die "needs Debian (apt-get)"
[ -n "$XEN" ] || die "set XEN=/path/to/xen.git (a Xen repository with $XEN_TAG)"
git -C "$XEN" rev-parse -q --verify "$XEN_TAG^{commit}" >/dev/null ||
    die "$XEN has no $XEN_TAG"
mkdir -p "$WORK"
cd "$WORK"
. "$TOP/lab/trixie.sh"

# ---------------------------------------------------------------- 1. packages
HOSTPKGS="qemu-system-arm device-tree-compiler cpio gzip xz-utils file git
  gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross bison flex
  make python3"
missing=""
for p in $HOSTPKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    log "installing:$missing"
    apt-get -o DPkg::Lock::Timeout=900 update -q >apt-update.log 2>&1 || die "apt-get update (apt-update.log)"
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends \
        $missing >apt-install.log 2>&1 || die "apt-get install (apt-install.log)"
fi

# --------------------------------------------- 2. trixie arm64 debs, unpacked
trixie_setup "$WORK/trixie" || die "trixie package lists"
KPKG=$(apt-cache $(trixie_apt_opts "$WORK/trixie") depends linux-image-arm64:arm64 2>/dev/null |
       sed -n 's/.*Depends: \(linux-image-[0-9][^:]*-arm64\).*/\1/p' | head -n1)
[ -n "$KPKG" ] || die "cannot resolve trixie's arm64 kernel"
KVER=${KPKG#linux-image-}
DEBS="$KPKG:arm64 busybox-static:arm64 libc6:arm64 libxen-dev:arm64
  libxenmisc4.20:arm64 libxencall1:arm64 libxenevtchn1:arm64
  libxenforeignmemory1:arm64 libxengnttab1:arm64 libxentoollog1:arm64
  libxentoolcore1:arm64 libxendevicemodel1:arm64 libxenhypfs1:arm64
  libxenstore4:arm64 libyajl2:arm64"
if [ ! -f "trixie/debs/.done-$KVER" ]; then
    log "downloading trixie arm64 debs (kernel $KVER)"
    rm -f trixie/debs/*.deb
    trixie_download "$WORK/trixie" $DEBS || die "download"
    touch "trixie/debs/.done-$KVER"
fi
if [ ! -f "ex/.done-$KVER" ]; then
    trixie_unpack "$WORK/trixie" ex
    touch "ex/.done-$KVER"
fi
IMAGE=ex/boot/vmlinuz-$KVER          # Debian's arm64 vmlinuz is a raw Image
[ -f "$IMAGE" ] || die "no $IMAGE"
XENDEV=$(dpkg-deb -f trixie/debs/libxen-dev_*_arm64.deb Version)

# ------------------------ 3. patched Xen 4.20.4: hypervisor and xentrace
# Rebuilt only when the series changes.
PSUM=$( (cat "$SERIES"/0*.patch; echo "$XEN_TAG") | sha256sum | cut -c1-16)
XEN_IMG=$WORK/xen-build/xen-$PSUM
XENTRACE=$WORK/xen-build/xentrace-$PSUM
SRC=$WORK/xen-build/src
if [ ! -f "$XEN_IMG" ] || [ ! -f "$XENTRACE" ]; then
    if [ ! -f "xen-build/.applied-$PSUM" ]; then
        log "applying $(ls "$SERIES"/0*.patch | grep -vc cover-letter) patches to $XEN_TAG"
        rm -rf xen-build && mkdir -p xen-build
        git clone -q --shared --no-checkout "$XEN" "$SRC"
        git -C "$SRC" checkout -q --detach "$XEN_TAG"
        git -C "$SRC" -c user.name=lab -c user.email=lab@invalid \
            am -q $(ls "$SERIES"/0*.patch | grep -v cover-letter) >xen-build/am.log 2>&1 ||
            die "git am (xen-build/am.log)"
        touch "xen-build/.applied-$PSUM"
    fi
fi
if [ ! -f "$XEN_IMG" ]; then
    log "cross-building Xen (arm64, defconfig)"
    XMAKE="make -C $SRC/xen XEN_TARGET_ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-"
    $XMAKE defconfig >xen-build/build.log 2>&1 || die "defconfig (xen-build/build.log)"
    grep -q '^CONFIG_TRACEBUFFER=y' "$SRC/xen/.config" || die "TRACEBUFFER off"
    nice -n 10 $XMAKE -j2 >>xen-build/build.log 2>&1 || die "build (xen-build/build.log)"
    cp "$SRC/xen/xen" "$XEN_IMG"
fi
if [ ! -f "$XENTRACE" ]; then
    # xentrace alone, against trixie's libxen-dev; <xen/trace.h> from the series.
    log "cross-building the series' xentrace"
    mkdir -p xen-build/inc/xen
    cp "$SRC/xen/include/public/trace.h" xen-build/inc/xen/
    L=ex/usr/lib/aarch64-linux-gnu
    aarch64-linux-gnu-gcc -O2 -Wall -Werror -D__XEN_TOOLS__ -Ixen-build/inc \
        -Iex/usr/include -o "$XENTRACE" "$SRC/tools/xentrace/xentrace.c" \
        -L$L -Wl,-rpath-link,$L -lxenevtchn -lxenctrl >xen-build/xentrace.log 2>&1 ||
        die "xentrace (xen-build/xentrace.log)"
fi
log "hypervisor: $XEN_IMG, xentrace: $XENTRACE"

# --------------------------------------------------------- 4. initramfs
# Trixie has merged /usr: everything is under usr/, the ELF interpreter is
# still /lib/ld-linux-aarch64.so.1 (lib -> usr/lib).  Modules are .ko.xz.
mkinitrd() {    # $1 = dir, $2 = init script
    local R=$1
    rm -rf "$R"
    mkdir -p "$R"/{usr/bin,usr/sbin,usr/lib/modules,proc,sys,dev,tmp,etc}
    ln -s usr/bin "$R/bin"; ln -s usr/sbin "$R/sbin"; ln -s usr/lib "$R/lib"
    cp ex/usr/bin/busybox "$R/usr/bin/"
    ln -s busybox "$R/usr/bin/sh"
    install -m 755 "$2" "$R/init"
}

cat > init-dom0.sh <<EOF
#!/bin/sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in virtio_mmio virtio_blk xen-privcmd xen-evtchn xenfs; do
    insmod /lib/modules/\$m.ko || echo "LAB: insmod \$m failed"
done
mount -t xenfs xenfs /proc/xen
echo "LAB: dom0 up, waiting $PRE_SLEEP s"
sleep $PRE_SLEEP

# Workload, dom0 side:
#  - src/hyp.c: /sys/hypervisor reads (xen_version hypercalls), and reads of
#    an address nothing backs (Xen injects data aborts); console writes
#    (console_io hypercalls)
#  - /proc/irq/*/smp_affinity writes: GICD_IROUTER, MMIO emulated by Xen
#    (stage-2 faults with values)
#  - IPIs between the two vCPUs: ICC_SGI1R_EL1 writes (system register values)
#  - sleeps: WFI (HLT records), timer interrupts (vIRQ injection)
#  - disk reads: virtio interrupts; CPU1 off and on: PSCI over HVC #0 (SMCCC)
wl_con() {
    n=0
    while :; do
        n=\$((n + 1))
        echo "LAB: dom0 workload tick \$n"
        sleep 0.2
    done
}
wl_irq() {
    m=1; k=0
    while :; do
        k=\$((k + 1))
        for a in /proc/irq/[0-9]*/smp_affinity; do
            echo \$m > \$a 2>/dev/null
        done
        m=\$((3 - m))
        dd if=/dev/vda of=/dev/null bs=4k count=8 skip=\$(((k * 8) % 16000)) 2>/dev/null
        sleep 0.05
    done
}
wl_psci() {
    while :; do
        echo 0 > /sys/devices/system/cpu/cpu1/online && echo "LAB: cpu1 off"
        sleep 0.3
        echo 1 > /sys/devices/system/cpu/cpu1/online && echo "LAB: cpu1 on"
        touch /tmp/psci-cycle
        sleep 0.7
    done
}
# Under TCG on a loaded host xentrace takes seconds to start: start the
# workload once it traces (its file is not empty: the clock record is written
# once the buffers are mapped and enabled), stop it with SIGINT when the
# workload is done; -T is only an upper bound.
# No -D: this xentrace is the first of the boot, so it allocates and enables
# the buffers itself and they hold nothing older than that one moment for
# every pCPU. -D would empty them pCPU after pCPU from user space, later, and
# cut each pCPU's history at a different time (README.md).
echo "LAB: xentrace start"
/bin/xentrace -e $EVMASK -T $((TRACE_SECS + 300)) $XENTRACE_EXTRA /tmp/trace.bin &
XT=\$!
n=0
while [ ! -s /tmp/trace.bin ] && [ \$n -lt 600 ]; do sleep 0.1; n=\$((n + 1)); done
echo "LAB: tracing after \${n}00 ms"
/bin/hyp $TRACE_SECS & P0=\$!
wl_con & P1=\$!
wl_irq & P2=\$!
P3=
[ "$WORKLOAD" = mixed ] && { wl_psci & P3=\$!; }
wait \$P0
# at least one CPU off/on cycle in the trace
while [ -n "\$P3" ] && [ ! -e /tmp/psci-cycle ]; do sleep 0.1; done
kill \$P1 \$P2 \$P3 2>/dev/null
sleep 0.2
kill -INT \$XT
wait \$XT
echo "LAB: xentrace done rc=\$?"
SZ=\$(stat -c %s /tmp/trace.bin)
echo "LAB: TRACE size \$SZ md5 \$(md5sum /tmp/trace.bin | cut -d' ' -f1)"
echo "TRACELEN \$SZ" | dd of=/tmp/hdr bs=512 count=1 conv=sync 2>/dev/null
cat /tmp/hdr /tmp/trace.bin | dd of=/dev/vda bs=64k conv=fsync 2>/dev/null
sync
echo "LAB: trace written, power off"
poweroff -f
EOF
mkinitrd rootfs-dom0 init-dom0.sh
# xentrace and the libraries it needs, walked with readelf over the trixie
# tree (never the host's: trixie's tools need trixie's glibc).
L=ex/usr/lib/aarch64-linux-gnu
RL=rootfs-dom0/usr/lib/aarch64-linux-gnu
need_libs() {
    aarch64-linux-gnu-readelf -d "$@" 2>/dev/null |
        sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u
}
cp "$XENTRACE" rootfs-dom0/usr/bin/xentrace
aarch64-linux-gnu-gcc -static -O2 -Wall -Werror -o rootfs-dom0/usr/bin/hyp "$LAB/src/hyp.c" ||
    die "src/hyp.c"
mkdir -p $RL
cp -L ex/usr/lib/ld-linux-aarch64.so.1 rootfs-dom0/usr/lib/
todo="rootfs-dom0/usr/bin/xentrace"
while [ -n "$todo" ]; do
    next=""
    for lib in $(need_libs $todo); do
        [ -e "$RL/$lib" ] && continue
        [ -e "$L/$lib" ] || die "library $lib not in the trixie debs"
        cp -L "$L/$lib" "$RL/"
        next="$next $RL/$lib"
    done
    todo=$next
done
log "dom0 initramfs: xentrace and $(ls $RL | wc -l) libraries: $(ls $RL | tr '\n' ' ')"
M=ex/usr/lib/modules/$KVER/kernel
for m in drivers/virtio/virtio_mmio drivers/block/virtio_blk drivers/xen/xen-privcmd \
         drivers/xen/xen-evtchn drivers/xen/xenfs/xenfs; do
    xz -dc "$M/$m.ko.xz" > "rootfs-dom0/usr/lib/modules/$(basename "$m").ko"
done
(cd rootfs-dom0 && find . | cpio -o -H newc --quiet | gzip -6) > initrd-dom0.cpio.gz

# domU: busybox only; prints to its vpl011 console (MMIO emulated in Xen).
if [ "$WORKLOAD" = burn ]; then
    DOMU_WL='while :; do :; done & i=0; while :; do i=$((i+1)); echo "domU burn $i"; sleep 0.5; done'
else
    DOMU_WL='i=0; while :; do i=$((i+1)); echo "domU tick $i"; sleep 0.1; done'
fi
cat > init-domu.sh <<EOF
#!/bin/sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
echo "domU up"
$DOMU_WL
EOF
mkinitrd rootfs-domu init-domu.sh
(cd rootfs-domu && find . | cpio -o -H newc --quiet | gzip -6) > initrd-domu.cpio.gz

# ------------------------------------------------------ 5. device tree
rm -f out.img && truncate -s 64M out.img
QOPTS=(-machine virt,virtualization=on,gic-version=3 -cpu cortex-a57 -smp 2
       -m 2048 -nographic -nic none
       -drive file=out.img,if=none,format=raw,id=d0
       -device virtio-blk-device,drive=d0)
qemu-system-aarch64 "${QOPTS[@]}" -machine dumpdtb=virt.dtb >/dev/null 2>&1
D=virt-xen.dtb
cp virt.dtb $D
hx() { printf '0x%x' "$1"; }
ISZ=$(stat -c %s "$IMAGE")
[ "$ISZ" -lt $((0x4000000)) ] || die "kernel Image larger than 64 MiB"
fdtput -t x $D /chosen '#address-cells' 2
fdtput -t x $D /chosen '#size-cells' 2
fdtput -t s $D /chosen xen,xen-bootargs \
    "console=dtuart dtuart=/pl011@9000000 dom0_mem=512M dom0_max_vcpus=2 sched=$SCHED loglvl=all guest_loglvl=all $XEN_EXTRA"
fdtput -t s $D /chosen xen,dom0-bootargs "console=hvc0 earlycon=xenboot rdinit=/init"
fdtput -c $D /chosen/module@0
fdtput -t s $D /chosen/module@0 compatible multiboot,kernel multiboot,module
fdtput -t x $D /chosen/module@0 reg 0 0x50000000 0 "$(hx "$ISZ")"
fdtput -c $D /chosen/module@1
fdtput -t s $D /chosen/module@1 compatible multiboot,ramdisk multiboot,module
fdtput -t x $D /chosen/module@1 reg 0 0x54000000 0 "$(hx "$(stat -c %s initrd-dom0.cpio.gz)")"
[ "$(stat -c %s initrd-dom0.cpio.gz)" -lt $((0x2000000)) ] || die "dom0 initrd larger than 32 MiB"
LOADERS=(-device loader,file="$IMAGE",addr=0x50000000,force-raw=on
         -device loader,file=initrd-dom0.cpio.gz,addr=0x54000000,force-raw=on)
if [ "$DOMU" = 1 ]; then
    # Xen 4.20 silently builds no dom0 when the domU's kernel module has the
    # same address as dom0's: the domU gets its own copy of the Image.
    fdtput -c $D /chosen/domU1
    fdtput -t s $D /chosen/domU1 compatible xen,domain
    fdtput -t x $D /chosen/domU1 '#address-cells' 2
    fdtput -t x $D /chosen/domU1 '#size-cells' 2
    fdtput -t x $D /chosen/domU1 memory 0 0x40000
    fdtput -t x $D /chosen/domU1 cpus 2
    fdtput -t x $D /chosen/domU1 vpl011
    fdtput -c $D /chosen/domU1/module@0
    fdtput -t s $D /chosen/domU1/module@0 compatible multiboot,kernel multiboot,module
    fdtput -t x $D /chosen/domU1/module@0 reg 0 0x58000000 0 "$(hx "$ISZ")"
    fdtput -t s $D /chosen/domU1/module@0 bootargs "console=ttyAMA0 rdinit=/init"
    fdtput -c $D /chosen/domU1/module@1
    fdtput -t s $D /chosen/domU1/module@1 compatible multiboot,ramdisk multiboot,module
    fdtput -t x $D /chosen/domU1/module@1 reg 0 0x56000000 0 "$(hx "$(stat -c %s initrd-domu.cpio.gz)")"
    LOADERS+=(-device loader,file=initrd-domu.cpio.gz,addr=0x56000000,force-raw=on
              -device loader,file="$IMAGE",addr=0x58000000,force-raw=on)
fi

# ------------------------------------------------------------- 6. boot
OUT=$WORK/out/$NAME
rm -rf "$OUT" && mkdir -p "$OUT"
log "booting Xen under QEMU ($(qemu-system-aarch64 --version | head -n1))"
Q0=$(date +%s.%N)
set +e
timeout "$QEMU_TIMEOUT" nice -n 10 qemu-system-aarch64 "${QOPTS[@]}" -no-reboot -dtb $D \
    -kernel "$XEN_IMG" "${LOADERS[@]}" </dev/null 2>&1 |
    python3 -u -c '
import sys, time
t0 = time.time()
for line in sys.stdin.buffer:
    s = line.decode("utf-8", "replace").replace("\r", "").rstrip("\n")
    sys.stdout.write("[%7.2f] %s\n" % (time.time() - t0, s))
' > "$OUT/boot.log"
QRC=${PIPESTATUS[0]}
set -e
Q1=$(date +%s.%N)
QWALL=$(python3 -c "print('%.1f' % ($Q1 - $Q0))")
log "QEMU exit $QRC after $QWALL s"
[ "$QRC" = 0 ] || die "QEMU failed or timed out (see $OUT/boot.log)"

# ------------------------------------------------------- 7. extract + check
SZ=$(head -c 512 out.img | tr -d '\0' | awk '/TRACELEN/{print $2}')
[ -n "$SZ" ] || die "no trace on the disk image (see $OUT/boot.log)"
dd if=out.img of="$OUT/trace.xentrace" bs=512 skip=1 status=none
truncate -s "$SZ" "$OUT/trace.xentrace"
MD5=$(md5sum "$OUT/trace.xentrace" | cut -d' ' -f1)
grep -q "LAB: TRACE size $SZ md5 $MD5" "$OUT/boot.log" ||
    die "trace checksum differs from the one dom0 printed"
# No -D (above): only right if this xentrace allocated the buffers, which Xen
# says once, after the lab's "xentrace start" and never before it.
awk '/LAB: xentrace start/ { s = 1 } /\(XEN\) xentrace: initialised/ { n++; if (!s) e = 1 }
     END { exit !(n == 1 && !e) }' "$OUT/boot.log" ||
    die "the trace buffers were not allocated by the lab's xentrace (see $OUT/boot.log)"
TIMER=$(sed -n 's/.*Generic Timer IRQ:.*Freq: \([0-9]*\) KHz.*/\1/p' "$OUT/boot.log" | head -n1)
cat > "$OUT/info.txt" <<EOF
xen: $XEN_TAG ($(git -C "$XEN" rev-parse --short=12 "$XEN_TAG^{commit}")) + xen-patches/4.20 (sha256/16 $PSUM), arm64 defconfig, $(aarch64-linux-gnu-gcc --version | head -n1)
xentrace: the series' tools/xentrace/xentrace.c, built against trixie libxen-dev $XENDEV
qemu: $(qemu-system-aarch64 --version | head -n1)
kernel: trixie linux-image-$KVER (dom0 and domU); busybox-static $(dpkg-deb -f trixie/debs/busybox-static_*_arm64.deb Version)
timer: ${TIMER:-?} kHz (Xen's boot log)
sched: $SCHED  domU: $DOMU  workload: $WORKLOAD  trace: -e $EVMASK -T $TRACE_SECS $XENTRACE_EXTRA
qemu wall: $QWALL s
trace: $SZ bytes, md5 $MD5
EOF
python3 "$LAB/check.py" ${TIMER:+--clock-khz $TIMER} "$OUT/trace.xentrace" > "$OUT/check.txt" ||
    die "check.py found problems (see $OUT/check.txt)"
python3 "$LAB/check.py" --json "$OUT/trace.xentrace" > "$OUT/check.json"
cat "$OUT/info.txt"
sed -n '1,60p' "$OUT/check.txt"
log "done: $OUT (total $(( $(date +%s) - T0 )) s)"
