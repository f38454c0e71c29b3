#!/bin/sh
# `cmake --install` of the build tree: binaries, udev rules, systemd units, sysusers.d and
# tmpfiles.d fragments, manual pages, the sample eboardd.conf.
# a) `cmake --install BUILD --prefix DIR`: the tree below DIR; nothing is installed outside
#    DIR (no absolute destination); the installed programs run; man finds their pages; no
#    build-only program, test or benchmark is installed; every program has a manual page.
# b) `DESTDIR=DIR cmake --install BUILD`: the same tree below DIR/PREFIX, and what the units
#    name (ExecStart= binaries, the --config file) is in it.
# c) An installed eboardd.conf that was edited is kept by the next install.
# usage: install_test.sh CMAKE BUILD_DIR PREFIX FULL_SYSCONFDIR    exit 0 pass, 1 fail
set -eu
CMAKE=$1 BUILD=$2 PREFIX=$3 SYSCONF=$4
T=$(mktemp -d /tmp/eboard-install-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

expected="
bin/eboardctl
bin/eboard-emu
bin/eboard-perft
bin/eboard-winnable
bin/eboard-standings
sbin/eboardd
sbin/eboard-hub
lib/udev/rules.d/70-eboard.rules
lib/systemd/system/eboardd.service
lib/systemd/system/eboardd.socket
lib/systemd/system/eboardd-device@.service
lib/systemd/system/eboard-hub.service
lib/sysusers.d/eboardd.conf
lib/sysusers.d/eboard-hub.conf
lib/tmpfiles.d/eboardd.conf
share/man/man1/eboardctl.1
share/man/man1/eboard-emu.1
share/man/man1/eboard-perft.1
share/man/man1/eboard-winnable.1
share/man/man1/eboard-standings.1
share/man/man5/eboardd.conf.5
share/man/man8/eboardd.8
share/man/man8/eboard-hub.8"

check_tree() { # ROOT WHAT
    for f in $expected; do [ -f "$1/$f" ] || fail "$2: $f is not installed"; done
    for p in "$1"/bin/* "$1"/sbin/*; do
        name=$(basename "$p")
        case $name in
            test_* | bench_* | fuzz_* | eboard-udev-rules) fail "$2: $name is installed (build-only)" ;;
        esac
        ls "$1"/share/man/man[18]/"$name".[18] >/dev/null 2>&1 || fail "$2: $name has no manual page (man/)"
    done
    [ -z "$(find "$1" -name '*.a' -o -name '*.hpp' -o -name '*.o')" ] || fail "$2: libraries or headers installed"
    grep -q 'eboardd-device@' "$1/lib/udev/rules.d/70-eboard.rules" || fail "$2: the rules are not the generated ones"
}

# a) --prefix
grep -h 'DESTINATION "/' $(find "$BUILD" -name cmake_install.cmake) >"$T/absolute" || true
case $SYSCONF in "$PREFIX"/*) ;; *) echo "eboardd.conf -> $SYSCONF" >>"$T/absolute" ;; esac
if [ -s "$T/absolute" ]; then
    echo "note: absolute install destinations (a /usr build puts eboardd.conf in /etc), so"
    echo "      'cmake --install --prefix' is checked only through DESTDIR:"
    cat "$T/absolute"
else
    P=$T/prefix
    "$CMAKE" --install "$BUILD" --prefix "$P" >"$T/a.log" 2>&1 || { cat "$T/a.log"; fail "cmake --install --prefix failed"; }
    check_tree "$P" "--prefix"
    [ -f "$P/etc/eboardd.conf" ] || fail "--prefix: etc/eboardd.conf is not installed"
    "$P/sbin/eboardd" --version | grep -q '^eboardd ' || fail "the installed eboardd does not run"
    "$P/bin/eboardctl" --help >/dev/null || fail "the installed eboardctl does not run"
    [ "$(MANPATH=$P/share/man man -w eboardd.conf 2>/dev/null)" = "$P/share/man/man5/eboardd.conf.5" ] ||
        fail "man does not find eboardd.conf(5) in the installed tree"
fi

# b) DESTDIR
D=$T/destdir
DESTDIR=$D "$CMAKE" --install "$BUILD" >"$T/b.log" 2>&1 || { cat "$T/b.log"; fail "DESTDIR=... cmake --install failed"; }
check_tree "$D$PREFIX" "DESTDIR"
[ -f "$D$SYSCONF/eboardd.conf" ] || fail "DESTDIR: $SYSCONF/eboardd.conf is not installed"
for unit in eboardd.service eboardd-device@.service; do
    for path in $(sed -n 's/^Exec[A-Za-z]*=\(\/[^ ]*\).*/\1/p' "$D$PREFIX/lib/systemd/system/$unit"); do
        [ -x "$D$path" ] || [ -x "$path" ] || fail "$unit runs $path, which is not installed"
    done
done
conf=$(sed -n 's/^ExecStart=.* --config \([^ ]*\).*/\1/p' "$D$PREFIX/lib/systemd/system/eboardd.service")
[ "$conf" = "$SYSCONF/eboardd.conf" ] || fail "eboardd.service reads '$conf', not $SYSCONF/eboardd.conf"

# c) the administrator's eboardd.conf is kept
echo "# edited" >>"$D$SYSCONF/eboardd.conf"
DESTDIR=$D "$CMAKE" --install "$BUILD" >/dev/null 2>&1
grep -q '^# edited$' "$D$SYSCONF/eboardd.conf" || fail "a second install overwrote an edited eboardd.conf"

[ $failures -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "install: all checks passed"
