#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 11 items 4, 5, 10: the model's tables hashed and capped, no index
# wrap, PV v1 records too short (tests/hostile/check-tables.py).
. tests/check/lib.sh
need_python
python3 tests/hostile/check-tables.py
