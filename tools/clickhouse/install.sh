#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Installs clickhouse-server and clickhouse-client from the machine's
# Debian sources (bookworm has 18.16) when they are absent and we are
# root; nothing otherwise.  No service is needed: server.sh runs the
# server as a plain process.  Exit status 0 when both are there after.
have() { command -v clickhouse-client >/dev/null 2>&1 &&
         { command -v clickhouse-server >/dev/null 2>&1 ||
           [ -x /usr/sbin/clickhouse-server ]; }; }
have && exit 0
if [ "$(id -u)" != 0 ]; then
    echo "install.sh: not root: apt-get install clickhouse-server clickhouse-client" >&2
    exit 1
fi
apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        clickhouse-server clickhouse-client >/dev/null
have
