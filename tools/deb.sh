#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make deb: the Debian packages from debian/ (dpkg-buildpackage -us -uc -b
# on a copy of the tracked files in $BUILD/deb/src), lintian without
# errors, then the packages unpacked into a scratch root: the installed
# xenalyze reads a fixture (plain and gzip-compressed) as the build tree's
# does, and examples/exits.c builds against the installed headers and
# shared library and runs.  Exit 77 when the tools are missing.
#   BUILD  build directory (build)
set -eu
BUILD=${BUILD:-build}
D=$BUILD/deb
need=""
for t in dpkg-buildpackage dh lintian git cc; do
    command -v $t >/dev/null 2>&1 || need="$need $t"
done
if [ -n "$need" ]; then
    echo "deb: missing:$need (apt-get install dpkg-dev debhelper lintian git gcc)" >&2
    exit 77
fi
rm -rf "$D"
mkdir -p "$D/src"
git ls-files -z | xargs -0 cp -P --parents -t "$D/src"
echo "deb: dpkg-buildpackage -us -uc -b in $D/src (log: $D/build.log)"
( cd "$D/src" && DEB_BUILD_OPTIONS="nocheck parallel=2" \
      dpkg-buildpackage -us -uc -b ) > "$D/build.log" 2>&1 ||
    { tail -30 "$D/build.log"; echo "deb: dpkg-buildpackage failed" >&2; exit 1; }
ls "$D"/*.deb
# lintian: errors fail, warnings are shown.
lintian --fail-on error --no-tag-display-limit "$D"/*.changes ||
    { echo "deb: lintian found errors" >&2; exit 1; }

ROOT=$D/root
mkdir -p "$ROOT"
for p in xenalyze libxenalyze0 libxenalyze-dev; do
    f=$(ls "$D"/${p}_*.deb 2>/dev/null | head -1)
    [ -n "$f" ] || { echo "deb: no $p package" >&2; exit 1; }
    dpkg-deb -x "$f" "$ROOT"
done
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
F=tests/fixtures/x86/x86-qemu-xen417-pvh-svm.xentrace
for f in usr/bin/xenalyze usr/bin/xentrace-synth usr/share/man/man1/xenalyze.1.gz \
         "usr/lib/$MA/libxenalyze.so.0" "usr/lib/$MA/libxenalyze.a" \
         "usr/lib/$MA/pkgconfig/xenalyze.pc" usr/include/xenalyze/xenalyze.h; do
    [ -e "$ROOT/$f" ] || { echo "deb: not in the packages: $f" >&2; exit 1; }
done
"$ROOT/usr/bin/xenalyze" --cpu-hz=2.1G "$F" > "$D/installed.txt"
gzip -c "$F" > "$D/trace.gz"
"$ROOT/usr/bin/xenalyze" --cpu-hz=2.1G "$D/trace.gz" > "$D/installed-gz.txt"
cmp "$D/installed.txt" "$D/installed-gz.txt" ||
    { echo "deb: the installed xenalyze reads the .gz differently" >&2; exit 1; }
if [ -x "$BUILD/xenalyze" ]; then
    "$BUILD/xenalyze" --cpu-hz=2.1G "$F" > "$D/tree.txt"
    cmp "$D/tree.txt" "$D/installed.txt" ||
        { echo "deb: installed xenalyze differs from $BUILD/xenalyze" >&2; exit 1; }
fi
cc -std=c11 -Wall -Werror examples/exits.c -I"$ROOT/usr/include" \
    -L"$ROOT/usr/lib/$MA" -lxenalyze -o "$D/exits"
LD_LIBRARY_PATH="$ROOT/usr/lib/$MA" "$D/exits" "$F" > "$D/exits.txt"
grep -q "^d1 hvm exits [1-9]" "$D/exits.txt" ||
    { cat "$D/exits.txt"; echo "deb: example against the packages" >&2; exit 1; }
head -3 "$D/installed.txt"
echo "deb: ok: $(cd "$D" && ls *.deb | tr '\n' ' ')"
