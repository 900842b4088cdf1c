#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 11 items 8 and 10: no silent loss in the model, cycle sums that
# saturate (tests/hostile/check-model.py).
. tests/check/lib.sh
need_python
python3 tests/hostile/check-model.py
