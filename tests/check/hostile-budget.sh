#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 11 item 3: the model's memory bounded by a byte budget
# (tests/hostile/check-budget.py).
. tests/check/lib.sh
need_python
python3 tests/hostile/check-budget.py
