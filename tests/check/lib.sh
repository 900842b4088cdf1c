# SPDX-License-Identifier: GPL-2.0-only
# Shared by the check scripts: paths, and skipping when the shared real
# traces or python3 are absent (exit 77 = skip).
T=$SHARED/traces
R=$SHARED/reference/upstream-xenalyze
need_shared() {
    [ -d "$T" ] || { echo "no $T"; exit 77; }
}
need_python() {
    command -v python3 >/dev/null 2>&1 || { echo "no python3"; exit 77; }
}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# The real traces, one "PATH RATE" a line (RATE for --cpu-hz, "-": the
# trace's own or the default), as their READMEs give them: the fixtures,
# then $T when present.
real_traces() {
    for f in tests/fixtures/arm64/*.xentrace; do echo "$f -"; done
    for f in tests/fixtures/x86/*.xentrace; do echo "$f 2100M"; done
    [ -d "$T" ] || return 0
    echo "$T/x86-vmx-credit2-8cpu.xentrace -"
    echo "$T/x86-qemu-svm-pvh.xentrace 2300M"
    echo "$T/x86-qemu-pv-dom0.xentrace 2300M"
    echo "$T/arm64-qemu-credit2-2dom.xentrace 62.5M"
}
