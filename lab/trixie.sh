# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the labs: Debian 13 (trixie) package lists used side by side with
# the host's bookworm ones, through apt's own options, so that nothing on the
# host changes.  The mirror is the one the machine's apt sources name: the
# repository names none.  (See ../shared/notes/xen420-qemu-lab.md.)
#
#   trixie_setup DIR          lists in DIR/lists (apt-get update once a day)
#   trixie_download DIR PKG.. .debs of PKG (name:arch) into DIR/debs
#   trixie_unpack DIR OUT     every .deb of DIR/debs unpacked into OUT

# The first URI of the host's apt sources (deb822 .sources, else sources.list).
host_mirror() {
    local uri
    uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null)
    [ -n "$uri" ] || uri=$(awk '$1 == "deb" && $0 !~ /security/ {
        for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; exit } }' \
        /etc/apt/sources.list 2>/dev/null)
    [ -n "$uri" ] || return 1
    echo "$uri"
}

trixie_apt_opts() {
    local d=$1
    echo "-o Dir::Etc::sourcelist=$d/sources.list -o Dir::Etc::sourceparts=/dev/null" \
         "-o Dir::State::Lists=$d/lists -o Dir::Cache::archives=$d/archives" \
         "-o APT::Architectures::=amd64 -o APT::Architectures::=arm64"
}

trixie_setup() {
    local d=$1 uri
    uri=$(host_mirror) || { echo "trixie_setup: no mirror in the apt sources" >&2; return 1; }
    mkdir -p "$d/lists/partial" "$d/archives/partial" "$d/debs"
    printf 'deb [arch=arm64,amd64] %s trixie main\n' "$uri" > "$d/sources.list"
    if [ -z "$(find "$d/lists" -name '*trixie*Packages*' -mtime -1 2>/dev/null | head -n1)" ]; then
        # shellcheck disable=SC2046
        apt-get $(trixie_apt_opts "$d") update -q > "$d/update.log" 2>&1 ||
            { echo "trixie_setup: apt-get update failed, see $d/update.log" >&2; return 1; }
    fi
}

trixie_download() {
    local d=$1; shift
    # shellcheck disable=SC2046
    (cd "$d/debs" && apt-get $(trixie_apt_opts "$d") download "$@") > "$d/download.log" 2>&1 ||
        { echo "trixie_download: failed, see $d/download.log" >&2; return 1; }
}

# trixie_version DIR PKG: the candidate version of PKG (name:arch) in trixie
trixie_version() {
    # shellcheck disable=SC2046
    apt-cache $(trixie_apt_opts "$1") policy "$2" 2>/dev/null | awk '/Candidate:/ {print $2; exit}'
}

trixie_unpack() {
    local d=$1 out=$2 f
    rm -rf "$out" && mkdir -p "$out"
    for f in "$d"/debs/*.deb; do dpkg-deb -x "$f" "$out"; done
}
