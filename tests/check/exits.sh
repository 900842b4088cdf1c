# SPDX-License-Identifier: GPL-2.0-only
# --exits: on every real trace (shared and fixtures) the rows, summed per
# vCPU and reason, give the JSON summary's counts, cycles, min and max
# exactly (and each breakdown key's), with and without a window and a
# vCPU selection; JSON Lines carry the same rows as CSV; a pipe gives the
# same rows as the file; each row's time and pCPU are those of an exit
# record in the dump; on synthesized traces the rows equal the truth.
. tests/check/lib.sh
need_python
set -e
CHK=tests/tools/exits-check.py
# chk LABEL SUMMARY ROWS [--hz=HZ]: the checker, its verdict not lost in a pipe.
chk() {
    label=$1
    shift
    python3 $CHK "$@" > "$TMP/chk" || { cat "$TMP/chk"; echo "$label"; exit 1; }
    echo "$label: $(cat "$TMP/chk")"
}
traces=$(ls tests/fixtures/*/*.xentrace)
[ -d "$T" ] && traces="$traces $(ls "$T"/*.xentrace)"
n=0
for f in $traces; do
    b=$(basename "$f")
    $XA -s --format=json --exits="$TMP/r.csv" "$f" > "$TMP/s.json" 2> /dev/null
    chk "$b" "$TMP/s.json" "$TMP/r.csv"
    $XA --exits="$TMP/r.jsonl" --exits-format=jsonl "$f" 2> /dev/null
    python3 - "$TMP/r.csv" "$TMP/r.jsonl" <<'PY'
import csv, json, sys
c = list(csv.DictReader(open(sys.argv[1])))
j = [json.loads(l) for l in open(sys.argv[2])]
if [{k: str(v) for k, v in r.items()} for r in j] != c:
    sys.exit("JSON Lines and CSV rows differ")
PY
    cat "$f" | $XA --exits=- - > "$TMP/p.csv" 2> /dev/null
    cmp "$TMP/r.csv" "$TMP/p.csv" || { echo "$b: a pipe gives other rows"; exit 1; }
    n=$((n + 1))
done
echo "$n traces"

# Beside a timeline, --slowest and one thread: the same rows.
f=tests/fixtures/x86/x86-qemu-xen417-pvh-svm.xentrace
$XA --exits="$TMP/r.csv" "$f" 2> /dev/null
$XA -s --slowest=2 --perfetto="$TMP/t.pf" --threads=1 --exits="$TMP/p.csv" "$f" \
    > /dev/null 2>&1
cmp "$TMP/r.csv" "$TMP/p.csv" || { echo "--exits beside others: other rows"; exit 1; }

# A window and a selection apply to the rows as to the summary.
for f in tests/fixtures/arm64/arm64-xen420-credit2-dom0-domu.xentrace \
         tests/fixtures/x86/x86-qemu-xen417-pvh-svm.xentrace; do
    for sel in "--from=1 --to=2.5 --vcpu=d1v0,d0v1" "--from=0.5" \
               "--to=0.7 --domain=1"; do
        # shellcheck disable=SC2086
        $XA -s --format=json --exits="$TMP/r.csv" $sel "$f" > "$TMP/s.json" 2> /dev/null
        chk "$(basename "$f") $sel" "$TMP/s.json" "$TMP/r.csv"
    done
done

# Each row's time and pCPU: an exit record's line in the dump.
for f in tests/fixtures/arm64/arm64-xen420-credit-domu-burn.xentrace \
         tests/fixtures/x86/x86-qemu-xen417-pvh-svm.xentrace \
         tests/fixtures/x86/x86-qemu-xen420-pvh-svm.xentrace; do
    $XA --exits="$TMP/r.csv" "$f" 2> /dev/null
    $XA -a "$f" > "$TMP/d.txt" 2> /dev/null
    python3 - "$TMP/r.csv" "$TMP/d.txt" <<'PY'
import csv, re, sys
ex = set()
for l in open(sys.argv[2]):
    m = re.match(r"\s*(\d+)\.(\d{9}) p(\d+) \S+ (vmexit|arm:guest_exit|arm_exit|arm_exit_irq)\b", l)
    if m:
        ex.add((int(m[1]) * 10**9 + int(m[2]), int(m[3])))
rows = list(csv.DictReader(open(sys.argv[1])))
miss = [r for r in rows if (int(r["time_ns"]), int(r["pcpu"])) not in ex]
if miss or not rows:
    sys.exit("%d of %d rows are no exit record of the dump: %r"
             % (len(miss), len(rows), miss[:3]))
print("%d rows at the dump's exit records" % len(rows))
PY
done

# The checker is not blind: a row less, or one cycle more, is seen.
f=tests/fixtures/arm64/arm64-xen420-credit2-dom0-domu.xentrace
$XA -s --format=json --exits="$TMP/r.csv" "$f" > "$TMP/s.json" 2> /dev/null
sed '$d' "$TMP/r.csv" > "$TMP/m.csv"
if python3 $CHK "$TMP/s.json" "$TMP/m.csv" > /dev/null 2>&1; then
    echo "checker missed a dropped row"; exit 1
fi
awk -F, 'BEGIN { OFS = "," } NR == 2 { $11++ } { print }' "$TMP/r.csv" > "$TMP/m.csv"
if python3 $CHK "$TMP/s.json" "$TMP/m.csv" > /dev/null 2>&1; then
    echo "checker missed a changed cycle count"; exit 1
fi

# Standard output is the rows' alone.
if $XA -s --exits=- "$f" > /dev/null 2>&1; then
    echo "--exits=- with -s accepted"; exit 1
fi

# Synthesized traces: the rows equal the truth.
if [ -x "$SYNTH" ]; then
    for scn in vmx svm arm arm-format1 mixed; do
        hz=$(sed -n 's/^hz *= *\([0-9]*\).*/\1/p' "examples/$scn.scn")
        for seed in 1 2 3; do
            "$SYNTH" -s "examples/$scn.scn" -S "$seed" -o "$TMP/t" -t "$TMP/t.json"
            $XA --cpu-hz="$hz" --exits="$TMP/r.csv" "$TMP/t" 2> /dev/null
            chk "$scn/$seed" --hz="$hz" "$TMP/t.json" "$TMP/r.csv"
        done
    done
fi
