# SPDX-License-Identifier: GPL-2.0-only
# make install into a scratch root (DESTDIR, PREFIX, LIBDIR honoured);
# every installed header compiles alone as C11 and as C++ with gcc and
# clang; examples/exits.c builds against the installed tree through
# pkg-config, linked shared and static, with each compiler there is, and
# gives the numbers xenalyze gives; make uninstall leaves nothing behind.
. tests/check/lib.sh
need_python
ROOT=$TMP/root
LIB=$ROOT/usr/lib/xa-test
F=tests/fixtures/x86/x86-qemu-xen417-pvh-svm.xentrace
fail() { echo "FAIL: $*"; exit 1; }
imake() { MAKEFLAGS= make -s BUILD="$BUILD" DESTDIR="$ROOT" PREFIX=/usr \
              LIBDIR=/usr/lib/xa-test "$@"; }
# Under the sanitizers the library needs their runtime.
SAN=""
case $BUILD in *-san) SAN="-fsanitize=address,undefined" ;; esac

imake install > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail "make install"; }
for f in usr/bin/xenalyze usr/bin/xentrace-synth \
         usr/lib/xa-test/libxenalyze.a usr/lib/xa-test/libxenalyze.so \
         usr/lib/xa-test/libxenalyze.so.0 usr/lib/xa-test/pkgconfig/xenalyze.pc \
         usr/include/xenalyze/xenalyze.h usr/include/xenalyze/diag.def \
         usr/share/man/man1/xenalyze.1 usr/share/man/man1/xentrace-synth.1; do
    [ -e "$ROOT/$f" ] || fail "not installed: $f"
done
[ "$(ls include/xenalyze | wc -l)" = "$(ls "$ROOT/usr/include/xenalyze" | wc -l)" ] ||
    fail "not every header installed"
grep -qx "libdir=/usr/lib/xa-test" "$LIB/pkgconfig/xenalyze.pc" || fail "pc libdir"

# Each header alone, C11 and C++, with every compiler present.
compilers=""
for c in gcc clang g++ clang++; do
    if command -v $c >/dev/null 2>&1; then compilers="$compilers $c"
    else echo "SKIP: no $c"; fi
done
for c in $compilers; do
    case $c in *++) lang="-x c++ -std=c++11" ;; *) lang="-x c -std=c11" ;; esac
    for h in "$ROOT"/usr/include/xenalyze/*.h; do
        echo "#include <xenalyze/$(basename "$h")>" |
            $c $lang -Wall -Wextra -Werror -fsyntax-only \
               -I"$ROOT/usr/include" - ||
            fail "$c: $(basename "$h") does not compile alone"
    done
done
echo "headers compile alone with:$compilers"

# The example, through pkg-config (or by hand without it).
if command -v pkg-config >/dev/null 2>&1; then
    pc() { PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR="$LIB/pkgconfig" \
           PKG_CONFIG_SYSROOT_DIR="$ROOT" pkg-config "$@" xenalyze; }
    CFL=$(pc --cflags) && LIBS=$(pc --libs) && PRIV=$(pc --static --libs) ||
        fail "pkg-config"
else
    echo "SKIP: no pkg-config (flags by hand)"
    CFL="-I$ROOT/usr/include" LIBS="-L$LIB -lxenalyze" PRIV="$LIBS -lm -pthread"
fi
$XA --format=json "$F" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("records %d" % d["trace"]["records"])
for x in d["domains"]:
    t = x.get("all_vcpus", {}).get("exit_totals") or {"count": 0, "cycles": 0}
    print("d%d %s exits %d cycles %d" % (x["id"], x["kind"], t["count"], t["cycles"]))
print("anomalies %d" % sum(d["anomalies"].values()))
' > "$TMP/want" || fail "xenalyze --format=json"
for c in $compilers; do
    case $c in *++) continue ;; esac
    # A library built with gcc's sanitizer runtime runs only in programs
    # linked with that runtime: clang links its own.
    case "$SAN:$c" in -f*:clang) continue ;; esac
    $c -std=c11 -Wall -Wextra -Werror $SAN examples/exits.c $CFL $LIBS \
        -o "$TMP/exits-shared-$c" || fail "$c: shared link"
    objdump -p "$TMP/exits-shared-$c" 2>/dev/null | grep -q "NEEDED *libxenalyze.so.0" ||
        fail "$c: not linked to libxenalyze.so.0"
    LD_LIBRARY_PATH=$LIB "$TMP/exits-shared-$c" "$F" > "$TMP/got" ||
        fail "$c: shared run"
    diff -u "$TMP/want" "$TMP/got" || fail "$c: shared: differs from xenalyze"
    $c -std=c11 -Wall -Wextra -Werror $SAN -static-libgcc examples/exits.c \
        $CFL -Wl,-Bstatic $(echo "$PRIV" | sed 's/-lm -pthread//') \
        -Wl,-Bdynamic -lm -pthread -o "$TMP/exits-static-$c" ||
        fail "$c: static link (the archive must link with any compiler)"
    "$TMP/exits-static-$c" "$F" > "$TMP/got" || fail "$c: static run"
    diff -u "$TMP/want" "$TMP/got" || fail "$c: static: differs from xenalyze"
done
cat "$TMP/got"

imake uninstall > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail "make uninstall"; }
left=$(find "$ROOT" -type f -o -type l)
[ -z "$left" ] || fail "left after uninstall: $left"
echo "install ok"
