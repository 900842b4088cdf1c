#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# One-command arm64 lab: build Debian's Xen 4.17 with xen-patches/4.17/*.patch
# (TRC_ARM trace records), boot it under qemu-system-aarch64 (TCG) with dom0
# and a dom0less domU, capture a trace with Debian's arm64 xentrace, bring
# the trace and the boot log out and cross-check the trace with check.py.
#
# Usage (as root on Debian 12, from the repository root):
#   bash lab/arm64/run.sh                 # or: make lab-arm64
#   NAME=credit SCHED=credit WORKLOAD=burn bash lab/arm64/run.sh
#
# Settings (environment):
#   NAME        output name under lab/arm64/work/out/ (default: default)
#   SCHED       Xen scheduler: credit2 (default) or credit
#   DOMU        1 = boot a dom0less domU (default), 0 = dom0 only
#   WORKLOAD    dom0+domU workload: mixed (default) or burn (domU burns CPU)
#   TRACE_SECS  xentrace -T (guest seconds, default 3)
#   EVMASK      xentrace -e (default all)
#   XENTRACE_EXTRA  more xentrace options (default "-S 256": 1 MiB per pCPU)
#   PRE_SLEEP   seconds dom0 waits before tracing so the domU is up (default 6)
#   XEN_EXTRA   more Xen command line options
#   WORK        work directory (default lab/arm64/work, git-ignored)
#
# Outputs: $WORK/out/$NAME/{trace.xentrace,boot.log,check.txt,check.json}
set -euo pipefail

LAB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$LAB/../.." && pwd)
WORK=${WORK:-$LAB/work}
NAME=${NAME:-default}
SCHED=${SCHED:-credit2}
DOMU=${DOMU:-1}
WORKLOAD=${WORKLOAD:-mixed}
TRACE_SECS=${TRACE_SECS:-3}
EVMASK=${EVMASK:-all}
XENTRACE_EXTRA=${XENTRACE_EXTRA:--S 256}
PRE_SLEEP=${PRE_SLEEP:-6}
XEN_EXTRA=${XEN_EXTRA:-}
PATCHES=$TOP/xen-patches/4.17
XENVER=4.17.5+72-g01140da4e8      # Debian bookworm's xen source package
T0=$(date +%s)

log() { printf '[lab %4ds] %s\n' $(( $(date +%s) - T0 )) "$*"; }
die() { log "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (apt-get, dpkg --add-architecture)"
command -v apt-get >/dev/null || die "needs Debian (apt-get)"
mkdir -p "$WORK"
cd "$WORK"

# ---------------------------------------------------------------- 1. packages
HOSTPKGS="qemu-system-arm device-tree-compiler cpio gzip xz-utils file
  gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu bison flex make python3
  dpkg-dev"
need_update=0
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    dpkg --add-architecture arm64
    need_update=1
fi
if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list \
        /etc/apt/sources.list.d/; then
    log "adding a bookworm deb-src entry"
    cat > /etc/apt/sources.list.d/lab-arm64-debsrc.sources <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    need_update=1
fi
missing=""
for p in $HOSTPKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ] || [ $need_update = 1 ]; then
    log "apt-get update"
    apt-get update -q >apt-update.log 2>&1 || die "apt-get update (apt-update.log)"
fi
if [ -n "$missing" ]; then
    log "installing:$missing"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing \
        >apt-install.log 2>&1 || die "apt-get install (apt-install.log)"
fi

# ------------------------------------------------------------ 2. Xen source
mkdir -p src
if [ ! -f "src/xen_$XENVER.orig.tar.xz" ]; then
    log "apt-get source --download-only xen"
    (cd src && apt-get source --download-only "xen=$XENVER-1" >../apt-source.log 2>&1 ||
               apt-get source --download-only xen >../apt-source.log 2>&1) ||
        die "apt-get source xen (apt-source.log)"
fi
ORIG=$(ls src/xen_*.orig.tar.xz | head -n1)
XENVER=$(basename "$ORIG" .orig.tar.xz); XENVER=${XENVER#xen_}

# ------------------------------------------ 3. patch + cross-build hypervisor
# The hypervisor is rebuilt only when the patches or the config change.
PSUM=$( (cat "$PATCHES"/*.patch; echo "$XENVER") | sha256sum | cut -c1-16)
XEN_IMG=$WORK/xen-build/xen-$PSUM
if [ ! -f "$XEN_IMG" ]; then
    log "extracting $ORIG and applying $(ls "$PATCHES"/*.patch | wc -l) patches"
    rm -rf xen-build/tree && mkdir -p xen-build/tree
    tar -C xen-build/tree --strip-components=1 -xf "$ORIG"
    for p in "$PATCHES"/*.patch; do
        patch -d xen-build/tree -p1 --forward --batch -s < "$p" ||
            die "patch $(basename "$p") does not apply"
    done
    log "cross-building Xen (arm64, defconfig)"
    XMAKE="make -C xen-build/tree/xen XEN_TARGET_ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-"
    $XMAKE defconfig >xen-build/build.log 2>&1 || die "defconfig (xen-build/build.log)"
    grep -q '^CONFIG_TRACEBUFFER=y' xen-build/tree/xen/.config || die "TRACEBUFFER off"
    $XMAKE -j2 >>xen-build/build.log 2>&1 || die "build (xen-build/build.log)"
    cp xen-build/tree/xen/xen "$XEN_IMG"
fi
log "hypervisor: $XEN_IMG"

# ------------------------------------------------ 4. arm64 binaries (debs)
mkdir -p debs
KVER=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null |
       sed -n 's/.*Depends: linux-image-\([0-9][^:]*-arm64\).*/\1/p' | head -n1)
[ -n "$KVER" ] || die "cannot resolve the arm64 kernel version"
DEBS="xen-utils-4.17:arm64 busybox-static:arm64 linux-image-$KVER:arm64
  libc6:arm64 libxencall1:arm64 libxenevtchn1:arm64 libxenforeignmemory1:arm64
  libxengnttab1:arm64 libxenmisc4.17:arm64 libxenstore4:arm64
  libxentoollog1:arm64 libxentoolcore1:arm64 libxendevicemodel1:arm64
  libyajl2:arm64"
if [ ! -f "debs/.done-$KVER" ]; then
    log "apt-get download arm64 debs (kernel $KVER)"
    (cd debs && apt-get download $DEBS >../apt-download.log 2>&1) ||
        die "apt-get download (apt-download.log)"
    touch "debs/.done-$KVER"
fi
if [ ! -f "ex/.done-$KVER" ]; then
    rm -rf ex && mkdir ex
    for f in debs/*.deb; do dpkg-deb -x "$f" ex/; done
    touch "ex/.done-$KVER"
fi
IMAGE=ex/boot/vmlinuz-$KVER          # Debian's arm64 vmlinuz is a raw Image
[ -f "$IMAGE" ] || die "no $IMAGE"

# --------------------------------------------------------- 5. initramfs
mkinitrd() {    # $1 = dir, $2 = init script, $3 = output
    local R=$1
    rm -rf "$R"
    mkdir -p "$R"/{bin,sbin,proc,sys,dev,tmp,etc,lib/modules,usr/lib}
    cp ex/bin/busybox "$R/bin/"
    ln -s busybox "$R/bin/sh"
    install -m 755 "$2" "$R/init"
}

# dom0: xentrace + libraries + the modules for /dev/xen and the virtio disk.
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
#  - /sys/hypervisor reads: xen_version hypercalls (HVC)
#  - console writes: console_io hypercalls
#  - IRQ affinity changes: GICD_IROUTER writes, MMIO emulated by Xen (DABT)
#  - two busy-ish loops on two vCPUs: IPIs = ICC_SGI1R_EL1 writes (SYSREG)
#  - sleep: WFI (WFX), timer interrupts (IRQ); disk reads: virtio IRQs
wl_hyp() {
    n=0
    while :; do
        cat /sys/hypervisor/version/* /sys/hypervisor/properties/* \
            /sys/hypervisor/uuid >/dev/null 2>&1
        n=\$((n + 1))
        [ \$((n % 5)) = 0 ] && echo "LAB: dom0 workload tick \$n"
        sleep 0.02
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
# PSCI over HVC #0 (SMC records): take dom0's vCPU1 off line and back.
wl_psci() {
    while :; do
        sleep 0.7
        echo 0 > /sys/devices/system/cpu/cpu1/online && echo "LAB: cpu1 off"
        sleep 0.3
        echo 1 > /sys/devices/system/cpu/cpu1/online && echo "LAB: cpu1 on"
    done
}
wl_hyp & P1=\$!
wl_irq & P2=\$!
P3=
[ "$WORKLOAD" = mixed ] && { wl_psci & P3=\$!; }
echo "LAB: xentrace start"
/bin/xentrace -D -e $EVMASK -T $TRACE_SECS $XENTRACE_EXTRA /tmp/trace.bin
echo "LAB: xentrace done rc=\$?"
kill \$P1 \$P2 \$P3 2>/dev/null
SZ=\$(stat -c %s /tmp/trace.bin)
echo "LAB: TRACE size \$SZ md5 \$(md5sum /tmp/trace.bin | cut -d' ' -f1)"
echo "TRACELEN \$SZ" | dd of=/tmp/hdr bs=512 count=1 conv=sync 2>/dev/null
cat /tmp/hdr /tmp/trace.bin | dd of=/dev/vda bs=64k conv=fsync 2>/dev/null
sync
echo "LAB: trace written, power off"
poweroff -f
EOF
mkinitrd rootfs-dom0 init-dom0.sh
cp -a ex/lib/aarch64-linux-gnu ex/lib/ld-linux-aarch64.so.1 rootfs-dom0/lib/
cp -a ex/usr/lib/aarch64-linux-gnu rootfs-dom0/usr/lib/
rm -rf rootfs-dom0/usr/lib/aarch64-linux-gnu/gconv
cp ex/usr/lib/xen-4.17/bin/xentrace rootfs-dom0/bin/
M=ex/lib/modules/$KVER/kernel
cp $M/drivers/virtio/virtio_mmio.ko $M/drivers/block/virtio_blk.ko \
   $M/drivers/xen/xen-privcmd.ko $M/drivers/xen/xen-evtchn.ko \
   $M/drivers/xen/xenfs/xenfs.ko rootfs-dom0/lib/modules/
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

# ------------------------------------------------------ 6. device tree
rm -f out.img && truncate -s 64M out.img
QOPTS=(-machine virt,virtualization=on,gic-version=3 -cpu cortex-a57 -smp 2
       -m 2048 -nographic
       -drive file=out.img,if=none,format=raw,id=d0
       -device virtio-blk-device,drive=d0)
qemu-system-aarch64 "${QOPTS[@]}" -machine dumpdtb=virt.dtb >/dev/null 2>&1
D=virt-xen.dtb
cp virt.dtb $D
hx() { printf '0x%x' "$1"; }
ISZ=$(stat -c %s "$IMAGE")
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
LOADERS=(-device loader,file="$IMAGE",addr=0x50000000,force-raw=on
         -device loader,file=initrd-dom0.cpio.gz,addr=0x54000000,force-raw=on)
if [ "$DOMU" = 1 ]; then
    fdtput -c $D /chosen/domU1
    fdtput -t s $D /chosen/domU1 compatible xen,domain
    fdtput -t x $D /chosen/domU1 '#address-cells' 2
    fdtput -t x $D /chosen/domU1 '#size-cells' 2
    fdtput -t x $D /chosen/domU1 memory 0 0x40000
    fdtput -t x $D /chosen/domU1 cpus 2
    fdtput -t x $D /chosen/domU1 vpl011
    fdtput -c $D /chosen/domU1/module@0
    fdtput -t s $D /chosen/domU1/module@0 compatible multiboot,kernel multiboot,module
    fdtput -t x $D /chosen/domU1/module@0 reg 0 0x50000000 0 "$(hx "$ISZ")"
    fdtput -t s $D /chosen/domU1/module@0 bootargs "console=ttyAMA0 rdinit=/init"
    fdtput -c $D /chosen/domU1/module@1
    fdtput -t s $D /chosen/domU1/module@1 compatible multiboot,ramdisk multiboot,module
    fdtput -t x $D /chosen/domU1/module@1 reg 0 0x56000000 0 "$(hx "$(stat -c %s initrd-domu.cpio.gz)")"
    LOADERS+=(-device loader,file=initrd-domu.cpio.gz,addr=0x56000000,force-raw=on)
fi

# ------------------------------------------------------------- 7. boot
OUT=$WORK/out/$NAME
rm -rf "$OUT" && mkdir -p "$OUT"
log "booting Xen under QEMU ($(qemu-system-aarch64 --version | head -n1))"
Q0=$(date +%s.%N)
set +e
timeout 600 qemu-system-aarch64 "${QOPTS[@]}" -no-reboot -dtb $D \
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
log "QEMU exit $QRC after $(python3 -c "print('%.1f' % ($Q1 - $Q0))") s"
[ "$QRC" = 0 ] || die "QEMU failed or timed out (see $OUT/boot.log)"

# ------------------------------------------------------- 8. extract + check
SZ=$(head -c 512 out.img | tr -d '\0' | awk '/TRACELEN/{print $2}')
[ -n "$SZ" ] || die "no trace on the disk image (see $OUT/boot.log)"
dd if=out.img of="$OUT/trace.xentrace" bs=512 skip=1 status=none
truncate -s "$SZ" "$OUT/trace.xentrace"
MD5=$(md5sum "$OUT/trace.xentrace" | cut -d' ' -f1)
grep -q "LAB: TRACE size $SZ md5 $MD5" "$OUT/boot.log" ||
    die "trace checksum differs from the one dom0 printed"
cat > "$OUT/info.txt" <<EOF
xen: $XENVER (Debian orig source) + xen-patches/4.17 ($(cd "$TOP" && git log -1 --format=%h -- xen-patches 2>/dev/null || echo uncommitted), sha256/16 $PSUM)
qemu: $(qemu-system-aarch64 --version | head -n1)
kernel: linux-image-$KVER (dom0 and domU)
xentrace: $(dpkg-deb -f debs/xen-utils-4.17_*_arm64.deb Version)
sched: $SCHED  domU: $DOMU  workload: $WORKLOAD  trace: -e $EVMASK -T $TRACE_SECS $XENTRACE_EXTRA
trace: $SZ bytes, md5 $MD5
EOF
python3 "$LAB/check.py" "$OUT/trace.xentrace" > "$OUT/check.txt" ||
    die "check.py found problems (see $OUT/check.txt)"
python3 "$LAB/check.py" --json "$OUT/trace.xentrace" > "$OUT/check.json"
cat "$OUT/info.txt"
sed -n '1,40p' "$OUT/check.txt"
log "done: $OUT (total $(( $(date +%s) - T0 )) s)"
