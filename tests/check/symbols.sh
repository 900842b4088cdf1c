# SPDX-License-Identifier: GPL-2.0-only
# The shared library exports exactly the XA_API declarations of the public
# headers: nothing internal leaks (visibility hidden by default), nothing
# declared is missing.  And it has its soname.
. tests/check/lib.sh
need_python
SO=$BUILD/libxenalyze.so.0
[ -f "$SO" ] || { echo "no $SO"; exit 1; }
command -v nm >/dev/null 2>&1 || { echo "no nm"; exit 77; }
nm -D --defined-only "$SO" | awk '$2 ~ /^[TDRB]$/ { print $3 }' |
    sort > "$TMP/exported"
python3 - include/xenalyze/*.h > "$TMP/declared" <<'PY' || exit 1
import re, sys
names = set()
for path in sys.argv[1:]:
    text = re.sub(r"/\*.*?\*/", " ", open(path).read(), flags=re.S)
    text = re.sub(r"(?m)^\s*#.*$", " ", text)
    for decl in re.findall(r"\bXA_API\b([^;{]*)", text):
        # the name: the last xa_ identifier before its "(" or "["
        m = re.findall(r"\b(xa_\w+)\s*[(\[]", decl.split(")")[0] + ")")
        if not m:
            sys.exit("cannot read: XA_API" + decl)
        names.add(m[-1])
print("\n".join(sorted(names)))
PY
if ! diff -u "$TMP/declared" "$TMP/exported"; then
    echo "exported symbols (+) differ from the XA_API declarations (-)"
    exit 1
fi
echo "$(wc -l < "$TMP/exported") symbols exported, all XA_API"
if command -v objdump >/dev/null 2>&1; then
    objdump -p "$SO" | grep -q "SONAME *libxenalyze.so.0$" ||
        { echo "no soname libxenalyze.so.0"; exit 1; }
fi
