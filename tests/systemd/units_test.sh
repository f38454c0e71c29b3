#!/bin/sh
# The installed systemd units, sysusers.d and tmpfiles.d fragments, checked offline with the
# real systemd tools (no booted systemd needed):
# - `systemd-analyze verify` on the units as installed (ExecStart= pointed into the staging
#   tree so the binaries exist; Documentation= man pages looked up in the staged man pages).
#   It exits 0 on unknown keys and bad values and only prints a warning, so ANY output fails;
# - `systemd-analyze security --offline=yes --threshold=20`: exposure <= 2.0;
# - systemd-sysusers and systemd-tmpfiles applied to the staging root (--root): the user
#   eboardd, the group eboardctl, /run/eboardd owned by eboardd.
# usage: units_test.sh CMAKE BUILD_DIR INSTALL_PREFIX      exit 0 pass, 1 fail, 77 skip
set -eu
CMAKE=$1 BUILD=$2 PREFIX=$3
for tool in systemd-analyze systemd-sysusers systemd-tmpfiles; do
    command -v $tool >/dev/null || { echo "SKIP: $tool is missing (package systemd, scripts/deps)"; exit 77; }
done
T=$(mktemp -d /tmp/eboard-units-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

DESTDIR=$T/root "$CMAKE" --install "$BUILD" >"$T/install.log" || { cat "$T/install.log"; exit 1; }
R=$T/root
UNITS=$R$PREFIX/lib/systemd/system
for u in eboardd.service eboardd.socket eboardd-device@.service eboard-hub.service; do
    [ -f "$UNITS/$u" ] || fail "$u is not installed in $PREFIX/lib/systemd/system"
done

# 1. verify: a copy whose Exec*= name the staged binaries; the template as an instance.
mkdir "$T/units"
for f in "$UNITS"/*; do
    sed "s|^\(Exec[A-Za-z]*=\)$PREFIX/|\1$R$PREFIX/|" "$f" >"$T/units/$(basename "$f")"
done
mv "$T/units/eboardd-device@.service" "$T/units/eboardd-device@ttyUSB0.service"
grep -q "^ExecStart=$R$PREFIX/sbin/eboardd " "$T/units/eboardd.service" || fail "ExecStart of eboardd.service is not $PREFIX/sbin/eboardd"
grep -q "^ExecStart=$R$PREFIX/sbin/eboard-hub " "$T/units/eboard-hub.service" || fail "ExecStart of eboard-hub.service is not $PREFIX/sbin/eboard-hub"
MAN=--man=no
[ -d "$R$PREFIX/share/man/man8" ] && command -v man >/dev/null && MAN=--man=yes
(cd "$T/units" && MANPATH=$R$PREFIX/share/man systemd-analyze verify $MAN \
    eboardd.service eboardd.socket eboardd-device@ttyUSB0.service eboard-hub.service) >"$T/verify" 2>&1 ||
    fail "systemd-analyze verify exited $?"
if [ -s "$T/verify" ]; then
    fail "systemd-analyze verify $MAN printed (a warning is a defect):"
    cat "$T/verify"
fi

# 2. security exposure, offline.
for u in eboardd.service eboardd-device@ttyUSB0.service eboard-hub.service; do
    score=$(cd "$T/units" && systemd-analyze security --offline=yes "$u" 2>&1 | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
    echo "$u: exposure $score"
    (cd "$T/units" && systemd-analyze security --offline=yes --threshold=20 "$u" >/dev/null 2>&1) ||
        fail "$u: exposure $score is above 2.0"
done

# 3. sysusers and tmpfiles, applied to the staging root.
mkdir -p "$R/etc"
touch "$R/etc/passwd" "$R/etc/group" "$R/etc/shadow" "$R/etc/gshadow"
systemd-sysusers --root="$R" "$R$PREFIX/lib/sysusers.d/eboardd.conf" >"$T/sysusers" 2>&1 ||
    { fail "systemd-sysusers failed"; cat "$T/sysusers"; }
grep -q '^eboardd:x:[0-9]*:[0-9]*:.*:/var/lib/eboardd:' "$R/etc/passwd" || fail "no system user eboardd"
grep -q '^eboardctl:x:' "$R/etc/group" || fail "no group eboardctl"
systemd-sysusers --root="$R" "$R$PREFIX/lib/sysusers.d/eboard-hub.conf" >"$T/sysusers" 2>&1 ||
    { fail "systemd-sysusers failed on eboard-hub.conf"; cat "$T/sysusers"; }
grep -q '^eboard-hub:x:[0-9]*:[0-9]*:.*:/var/lib/eboard-hub:' "$R/etc/passwd" || fail "no system user eboard-hub"
systemd-tmpfiles --root="$R" --create "$R$PREFIX/lib/tmpfiles.d/eboardd.conf" >"$T/tmpfiles" 2>&1 ||
    { fail "systemd-tmpfiles failed"; cat "$T/tmpfiles"; }
uid=$(sed -n 's/^eboardd:x:\([0-9]*\):.*/\1/p' "$R/etc/passwd")
[ "$(stat -c '%u %a' "$R/run/eboardd" 2>/dev/null)" = "$uid 755" ] || fail "/run/eboardd is not eboardd's, mode 0755"

# 4. The names the units, the rules and the fragments share.
grep -q '^ListenStream=/run/eboardd/eboardd.sock$' "$UNITS/eboardd.socket" || fail "socket path"
grep -q '^SocketGroup=eboardctl$' "$UNITS/eboardd.socket" || fail "socket group"
grep -q '^SupplementaryGroups=dialout plugdev eboardctl$' "$UNITS/eboardd.service" || fail "groups of eboardd.service"
for g in dialout plugdev; do
    grep -q "GROUP=\"$g\"" "$R$PREFIX/lib/udev/rules.d/70-eboard.rules" ||
        [ "$g" = plugdev ] || fail "70-eboard.rules does not give ttys to $g"
    getent group $g >/dev/null || fail "group $g does not exist on this system"
done
grep -q 'eboardd-device@' "$R$PREFIX/lib/udev/rules.d/70-eboard.rules" || fail "rules do not start eboardd-device@"

[ $failures -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "systemd units: all checks passed"
