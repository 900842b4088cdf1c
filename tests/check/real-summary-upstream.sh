# SPDX-License-Identifier: GPL-2.0-only
# Summaries of the real traces agree with upstream xenalyze's: for every
# domain, vCPU and exit reason, equal counts and mean cycles within 1%, for
# exits, vCPU runstates and domain runstates.  The SVM trace is read with
# no mode option: the analyzer must recognise SVM by itself.
. tests/check/lib.sh
need_shared
need_python
run() {     # trace reference hz [options]
    n=$1 ref=$2 hz=$3; shift 3
    $XA --cpu-hz="$hz" --format=json "$@" "$T/$n.xentrace" > "$TMP/$n.json" || exit 1
    python3 tests/tools/compare-upstream.py "$R/$n.$ref.txt" "$TMP/$n.json" || exit 1
}
run x86-vmx-credit2-8cpu summary 2.4G
# The same with upstream's --report-pcpu section: per-CPU running and idle.
run x86-vmx-credit2-8cpu summary-report-pcpu 2.4G --report-pcpu
run x86-qemu-svm-pvh summary-svm-mode 2300M
run x86-qemu-pv-dom0 summary 2299.999M
run arm64-qemu-credit2-2dom summary 62.5M
grep -q '"hvm_mode":"svm"' "$TMP/x86-qemu-svm-pvh.json" || { echo "SVM not recognised"; exit 1; }
grep -q '"hvm_mode":"vmx"' "$TMP/x86-vmx-credit2-8cpu.json" || { echo "VMX not recognised"; exit 1; }
# Text summary names SVM exits and says why.
$XA --cpu-hz=2300M "$T/x86-qemu-svm-pvh.xentrace" > "$TMP/svm.txt" || exit 1
grep -q "HVM exits read as SVM: exit code" "$TMP/svm.txt" || exit 1
grep -q "^   VMEXIT_VMMCALL \[0x81\]" "$TMP/svm.txt" || { grep VMMCALL "$TMP/svm.txt"; exit 1; }
