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
echo "GUEST workload finished"
while :; do sleep 1000; done
