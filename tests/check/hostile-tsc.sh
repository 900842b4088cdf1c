#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 11 item 2: TSC quarantine and resets (tests/hostile/check-tsc.py).
. tests/check/lib.sh
need_python
python3 tests/hostile/check-tsc.py
