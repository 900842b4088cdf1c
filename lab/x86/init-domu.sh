#!/bin/busybox sh
# /init of the PVH guest initramfs built by lab/x86/run.sh.
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
insmod /lib/modules/msr.ko || echo "GUEST insmod msr failed"
exec </dev/hvc0 >/dev/hvc0 2>&1
echo "GUEST init uptime=$(cut -d' ' -f1 /proc/uptime) cmdline: $(cat /proc/cmdline)"
LOOPS=$(tr ' ' '\n' < /proc/cmdline | sed -n 's/^xlab_loops=//p')
/bin/exits "${LOOPS:-30}" 120 2000
echo "GUEST workload finished"
while :; do sleep 1000; done
