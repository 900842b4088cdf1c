#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 11 item 7: lying window sizes (tests/hostile/check-windows.py).
. tests/check/lib.sh
need_python
python3 tests/hostile/check-windows.py
