#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copy lab runs to tests/fixtures/arm64/ as arm64-xen420-NAME.{xentrace,
# bootlog.txt,info.txt,check.json}, re-running check.py on the copy.
#   bash lab/arm64/fixtures.sh NAME...      (NAME: a directory of work/out/)
set -euo pipefail
LAB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$LAB/../.." && pwd)
F=$TOP/tests/fixtures/arm64
for name in "$@"; do
    out=$LAB/work/out/$name
    [ -s "$out/trace.xentrace" ] || { echo "no $out/trace.xentrace" >&2; exit 1; }
    dst=$F/arm64-xen420-$name
    cp "$out/trace.xentrace" "$dst.xentrace"
    cp "$out/boot.log" "$dst.bootlog.txt"
    cp "$out/info.txt" "$dst.info.txt"
    python3 "$LAB/check.py" --json "$dst.xentrace" > "$dst.check.json"
    python3 "$LAB/check.py" --expect "$dst.check.json" "$dst.xentrace" > /dev/null
    echo "$(basename "$dst"): $(wc -c < "$dst.xentrace") bytes, sha256 $(sha256sum "$dst.xentrace" | cut -c1-64)"
done
