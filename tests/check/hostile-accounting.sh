#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 11 item 9: every input byte accounted for
# (tests/hostile/check-accounting.py).
. tests/check/lib.sh
need_python
python3 tests/hostile/check-accounting.py
