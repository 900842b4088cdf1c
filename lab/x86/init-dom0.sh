#!/bin/busybox sh
# /init of the dom0 initramfs built by lab/x86/run.sh.
# Kernel command line: xlab=dom0|pvh|hvm  xlab_t=<xentrace -T seconds>  xlab_loops=<workload loops>
/bin/busybox --install -s /bin
XV=$(cat /etc/xlab-xenver 2>/dev/null || echo 4.17)
export PATH=/bin:/usr/bin:/usr/sbin:/usr/lib/xen-$XV/bin
export LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
mkdir -p /tmp /run; mount -t tmpfs tmpfs /tmp; mount -t tmpfs tmpfs /run
mkdir -p /dev/pts; mount -t devpts devpts /dev/pts
arg() { tr ' ' '\n' < /proc/cmdline | sed -n "s/^$1=//p"; }
MODE=$(arg xlab); T=$(arg xlab_t); LOOPS=$(arg xlab_loops)
echo "LAB dom0 init: xen=$XV mode=$MODE T=$T loops=$LOOPS uptime=$(cut -d' ' -f1 /proc/uptime)"
for m in virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci virtio_blk \
         xen-privcmd xen-evtchn xenfs xen-gntdev xen-gntalloc; do
    [ -e /lib/modules/$m.ko ] || continue     # built into 6.12
    insmod /lib/modules/$m.ko || echo "LAB insmod $m failed"
done
mkdir -p /proc/xen; mount -t xenfs xenfs /proc/xen
sleep 1
[ -b /dev/vda ] || echo "LAB no /dev/vda"

# xentrace has enabled tracing once it has written records to its output file
wait_tracing() {
    local n=0
    while [ ! -s /tmp/trace.bin ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n+1)); done
    echo "LAB tracing active after ${n}00 ms, uptime=$(cut -d' ' -f1 /proc/uptime)"
}

# end the trace shortly after the workload (xentrace flushes on SIGINT); -T is the upper bound
stop_tracing() {
    sleep 0.2
    kill -INT $XT 2>/dev/null
    wait $XT
    echo "LAB xentrace done uptime=$(cut -d' ' -f1 /proc/uptime)"
}

finish() {
    SZ=$(wc -c < /tmp/trace.bin); MD5=$(md5sum /tmp/trace.bin | cut -d' ' -f1)
    echo "LAB trace $SZ bytes md5 $MD5"
    echo "TRACELEN $SZ $MD5" | dd of=/dev/vda bs=512 count=1 conv=sync,fsync 2>/dev/null
    dd if=/tmp/trace.bin of=/dev/vda bs=512 seek=1 conv=fsync 2>/dev/null
    sync
    echo "LAB TRACE WRITTEN"
    poweroff -f
}

case "$MODE" in
dom0)
    # Background I/O for interrupts: direct reads from the (otherwise unused) disk tail.
    ( while :; do dd if=/dev/vda of=/dev/null bs=64k skip=2048 count=16 iflag=direct 2>/dev/null; sleep 0.05; done ) &
    IOPID=$!
    sleep 0.5
    echo "LAB xentrace start uptime=$(cut -d' ' -f1 /proc/uptime)"
    xentrace -D -e all -T "$T" /tmp/trace.bin &
    XT=$!
    wait_tracing
    /usr/bin/hcall "$LOOPS" 2000
    stop_tracing
    kill $IOPID
    finish
    ;;
pvh|hvm)
    # pvh: guest console is hvc0 via xenconsoled (logged to $LOG, tty in xenstore)
    # hvm: guest console is ttyS0 of the device model, written to a file (serial="file:...")
    mkdir -p /run/xen /run/xenstored /var/lib/xen /var/lib/xenstored /var/log/xen/console /var/run
    XENSTORED_ROOTDIR=/run/xenstored xenstored --pid-file /run/xenstore.pid
    xen-init-dom0
    xenconsoled --pid-file=/run/xenconsoled.pid --log=guest --log-dir=/var/log/xen/console
    echo "LAB xl create uptime=$(cut -d' ' -f1 /proc/uptime)"
    xl create /etc/xen/guest-$MODE.cfg ||
        { echo "LAB xl create FAILED"; cat /var/log/xen/*.log; poweroff -f; }
    if [ "$MODE" = pvh ]; then
        LOG=/var/log/xen/console/guest-guest1.log
    else
        LOG=/var/log/xen/hvm-serial.log    # serial="file:..." (no input: the guest starts
    fi                                     # by itself xlab_wait=40 s after "EXITS READY")
    # The guest's console is shown here as it comes (lines "LAB guest| ..."), with the
    # guest vCPUs' CPU time every 60 s, so that a stuck guest shows where it stopped.
    n=0; LIM=$(arg xlab_ready); [ -n "$LIM" ] || LIM=480; SHOWN=0
    while ! grep -q "EXITS READY" $LOG 2>/dev/null; do
        sleep 1; n=$((n+1))
        if [ $((n % 10)) = 0 ] && [ -e $LOG ]; then
            sed -n "$((SHOWN+1)),\$ s/^/LAB guest| /p" $LOG; SHOWN=$(wc -l < $LOG)
        fi
        [ $((n % 60)) = 0 ] && { echo "LAB waiting for the guest ${n}s uptime=$(cut -d' ' -f1 /proc/uptime)"; xl vcpu-list guest1; }
        [ $n -gt $LIM ] && {
            echo "LAB guest not ready"; cat $LOG /var/log/xen/*.log; xl list; xl vcpu-list
            xl debug-keys d; sleep 5; poweroff -f; }   # d: guest registers on Xen's console
    done
    echo "LAB guest ready after ${n}s uptime=$(cut -d' ' -f1 /proc/uptime)"
    TTY=""
    if [ "$MODE" = pvh ]; then
        sleep 2
        TTY=$(xenstore-read /local/domain/1/console/tty)
        echo "LAB guest console tty $TTY"
    else
        sleep 33
    fi
    echo "LAB xentrace start uptime=$(cut -d' ' -f1 /proc/uptime)"
    xentrace -D -e all -T "$T" /tmp/trace.bin &
    XT=$!
    wait_tracing
    [ -n "$TTY" ] && echo go > "$TTY"
    # poll slowly: every poll forks two dom0 processes, which shows up in the trace
    n=0
    while ! grep -q "GUEST workload finished" $LOG; do   # exits.c, then the balloon
        sleep 0.5; n=$((n+1)); [ $n -gt $((2 * T + 20)) ] && break
    done
    stop_tracing
    echo "LAB ---- guest console log ----"
    cat $LOG
    echo "LAB ---- end of guest console log ----"
    [ "$MODE" = hvm ] && { echo "LAB ---- device model log ----"; cat /var/log/xen/qemu-dm-guest1.log; }
    xl list
    xl destroy guest1
    finish
    ;;
*)
    echo "LAB unknown mode '$MODE'"; poweroff -f ;;
esac
