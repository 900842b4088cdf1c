#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 11 item 1: interval tables and plots after a TSC that leaps ahead
# (tests/hostile/check-plots.py).
. tests/check/lib.sh
need_python
python3 tests/hostile/check-plots.py
