# SPDX-License-Identifier: GPL-2.0-only
# Shared by the check scripts: paths, and skipping when the shared real
# traces or python3 are absent (exit 77 = skip).
T=$SHARED/traces
R=$SHARED/reference/upstream-xenalyze
need_shared() {
    [ -d "$T" ] || { echo "no $T"; exit 77; }
}
need_python() {
    command -v python3 >/dev/null 2>&1 || { echo "no python3"; exit 77; }
}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
