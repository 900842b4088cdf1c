#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 11: the hostile corpus (tests/hostile/run-corpus.py): every crafted
# attack in all 17 modes, damaged slices of the real traces and fixtures
# in 5 modes each, file and pipe, with $XA (plain or, under make
# SANITIZE=1 check, sanitized).  make hostile runs the long version.
. tests/check/lib.sh
need_python
python3 tests/hostile/run-corpus.py $T/*.xentrace \
    tests/fixtures/x86/x86-qemu-xen417-pv-dom0.xentrace \
    tests/fixtures/arm64/arm64-xen420-credit2-dom0-lossy.xentrace
