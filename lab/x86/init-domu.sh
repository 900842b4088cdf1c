#!/bin/busybox sh
# /init of the PVH/HVM guest initramfs built by lab/x86/run.sh (console: hvc0 or ttyS0).
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
insmod /lib/modules/msr.ko || echo "GUEST insmod msr failed"
CON=$(tr ' ' '\n' < /proc/cmdline | sed -n 's/^console=//p' | tail -1)
exec </dev/${CON:-hvc0} >/dev/${CON:-hvc0} 2>&1
echo "GUEST init uptime=$(cut -d' ' -f1 /proc/uptime) cmdline: $(cat /proc/cmdline)"
LOOPS=$(tr ' ' '\n' < /proc/cmdline | sed -n 's/^xlab_loops=//p')
WAIT=$(tr ' ' '\n' < /proc/cmdline | sed -n 's/^xlab_wait=//p')
/bin/exits "${LOOPS:-30}" "${WAIT:-120}" 2000
# Then the balloon gives BALLOON_KB back to Xen, still under xentrace: one
# TRC_MEM decrease_reservation record per page (order 0; Xen 4.18+ layout).
# Shell builtins only (read, not cat): forks are slow in a nested TCG guest.
BALLOON_KB=2048
B=/sys/devices/system/xen_memory/xen_memory0
if [ -w $B/target_kb ]; then
    read C0 < $B/info/current_kb; TGT=$((C0 - BALLOON_KB)); C1=$C0; n=0
    echo $TGT > $B/target_kb
    while [ $C1 -gt $TGT ] && [ $n -lt 300 ]; do sleep 0.05; read C1 < $B/info/current_kb; n=$((n+1)); done
    echo "GUEST BALLOON current_kb $C0 -> $C1 (target $TGT): $(( (C0 - C1) / 4 )) pages released"
else
    echo "GUEST BALLOON not available (no $B/target_kb)"
fi
echo "GUEST workload finished"
while :; do sleep 1000; done
