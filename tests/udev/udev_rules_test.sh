#!/bin/sh
# The generated udev rules (build/udev/70-eboard.rules) evaluated by the real udev, with
# `udevadm test`, on umockdev-faked USB devices: every USB id the drivers register gets
# ModemManager's ignore flag, its group and mode, uaccess, EBOARD_DRIVER, a stable
# /dev/eboard-DRIVER-ID link and eboardd-device@.service; other devices get none of it. Rules
# made from an id table (eboard-udev-rules --from-ids) cover what no built-in driver has yet
# (libusb boards, an id two drivers claim).
#
# SAFETY: as root, `udevadm test`
# really creates the device links in /dev and writes /run/udev. Everything below the re-exec
# runs in a private mount namespace with an overlay over /dev (/dev/pts re-bound: umockdev
# needs openpty) and a tmpfs over /run; the host's /etc/udev, /run/udev and /dev are never
# written, which the last check verifies from outside the namespace.
#
# usage: udev_rules_test.sh EBOARD_UDEV_RULES_BINARY GENERATED_RULES_FILE
# exit 0 pass, 1 fail, 77 skip (not root, or no udevadm/umockdev-run/unshare/overlayfs).
set -eu
GEN=$1
RULES=$2

if [ "${EBOARD_IN_NAMESPACE:-}" != 1 ]; then
    [ "$(id -u)" = 0 ] || { echo "SKIP: needs root (udevadm test, mount namespaces)"; exit 77; }
    for tool in udevadm umockdev-run unshare; do
        command -v $tool >/dev/null || { echo "SKIP: $tool is missing (scripts/deps installs it)"; exit 77; }
    done
    before=$(ls -d /dev/eboard-* /run/udev/data/*eboard* 2>/dev/null || true)
    T=$(mktemp -d /tmp/eboard-udev-test.XXXXXX)
    trap 'rm -rf "$T"' EXIT
    rc=0
    EBOARD_IN_NAMESPACE=1 EBOARD_SCRATCH=$T unshare --mount --propagation private sh "$0" "$@" || rc=$?
    after=$(ls -d /dev/eboard-* /run/udev/data/*eboard* 2>/dev/null || true)
    if [ "$before" != "$after" ]; then
        echo "FAIL: the test leaked into the host: $after"
        exit 1
    fi
    exit $rc
fi

# --- inside the private mount namespace ---
T=$EBOARD_SCRATCH
mkdir -p "$T/up" "$T/work" "$T/pts" "$T/dev"
mount --bind /dev/pts "$T/pts"
if ! mount -t overlay overlay -o "lowerdir=/dev,upperdir=$T/up,workdir=$T/work" /dev 2>"$T/mount.err"; then
    echo "SKIP: cannot mount an overlay over /dev here: $(cat "$T/mount.err")"
    exit 77
fi
mount --bind "$T/pts" /dev/pts
mount -t tmpfs tmpfs /run
mkdir -p /run/udev/rules.d

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

gid() { getent group "$1" | cut -d: -f3; }

# The root hub and the PCI host controller above both devices (path_id walks up to them).
usb_host() {
    cat <<DEV

P: /devices/pci0000:00/0000:00:14.0/usb1
N: bus/usb/001/001
E: DEVTYPE=usb_device
E: DRIVER=usb
E: SUBSYSTEM=usb
A: busnum=1
A: devnum=1
A: idVendor=1d6b
A: idProduct=0002
A: serial=0000:00:14.0

P: /devices/pci0000:00/0000:00:14.0
E: DRIVER=xhci_hcd
E: SUBSYSTEM=pci
E: PCI_SLOT_NAME=0000:00:14.0
DEV
}

# A USB-serial device VID:PID (serial number SERIAL, or none if empty) with its tty ttyUSB0.
tty_device() { # VID PID SERIAL
    serial="serial=$3"
    [ -n "$3" ] || serial="bcdDevice=0100"
    cat <<DEV
P: /devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/ttyUSB0/tty/ttyUSB0
N: ttyUSB0
E: DEVNAME=/dev/ttyUSB0
E: SUBSYSTEM=tty
E: MAJOR=188
E: MINOR=0
A: dev=188:0

P: /devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/ttyUSB0
E: DRIVER=ftdi_sio
E: SUBSYSTEM=usb-serial
A: port_number=0

P: /devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0
E: DEVTYPE=usb_interface
E: DRIVER=ftdi_sio
E: SUBSYSTEM=usb
A: bInterfaceNumber=00
A: bInterfaceClass=ff
A: bInterfaceSubClass=ff
A: bInterfaceProtocol=ff

P: /devices/pci0000:00/0000:00:14.0/usb1/1-4
N: bus/usb/001/007
E: DEVNAME=/dev/bus/usb/001/007
E: DEVTYPE=usb_device
E: DRIVER=usb
E: SUBSYSTEM=usb
E: BUSNUM=001
E: DEVNUM=007
A: busnum=1
A: devnum=7
A: idVendor=$1
A: idProduct=$2
A: manufacturer=Chess Maker
A: product=Sensor Board
A: $serial
A: speed=12
A: dev=189:6
$(usb_host)
DEV
}

# A USB device VID:PID without a tty (a libusb board), serial number SERIAL.
usb_device() { # VID PID SERIAL
    cat <<DEV
P: /devices/pci0000:00/0000:00:14.0/usb1/1-2
N: bus/usb/001/002
E: DEVNAME=/dev/bus/usb/001/002
E: DEVTYPE=usb_device
E: DRIVER=usb
E: SUBSYSTEM=usb
E: BUSNUM=001
E: DEVNUM=002
E: MAJOR=189
E: MINOR=1
A: busnum=1
A: devnum=2
A: idVendor=$1
A: idProduct=$2
A: manufacturer=Chess Maker
A: product=Sensor Board
A: serial=$3
A: speed=12
A: dev=189:1
$(usb_host)
DEV
}

# udevadm test of RULES on the device described by DEVFILE at SYSPATH; output in $T/out.
run_udev() { # RULES DEVFILE SYSPATH
    rm -rf /run/udev/data /run/udev/links /run/udev/tags
    cp "$1" /run/udev/rules.d/70-eboard.rules
    umockdev-run -d "$2" -- udevadm test --action=add "$3" >"$T/out" 2>&1 || true
    # udev 252 has no `udevadm verify`: a rule it cannot parse is only logged.
    if grep -E '70-eboard\.rules:[0-9]+ .*([Ii]nvalid|[Uu]nknown|ignoring|[Ff]ailed)' "$T/out"; then
        fail "udev does not accept every line of $1"
    fi
}

has() { grep -qxF -- "$1" "$T/out"; }
has_re() { grep -qE -- "$1" "$T/out"; }

# The checks for a board: DRIVERS (space-separated, as in EBOARD_DRIVER), GROUP, the
# eboardd-device@ INSTANCE, the LINK id.
expect_board() { # WHAT DRIVERS GROUP INSTANCE LINKID
    what=$1
    has "ID_MM_DEVICE_IGNORE=1" || fail "$what: no ID_MM_DEVICE_IGNORE=1"
    has "EBOARD_DRIVER=$2" || fail "$what: EBOARD_DRIVER is not '$2': $(grep EBOARD_DRIVER= "$T/out")"
    has_re "70-eboard\.rules:[0-9]+ GROUP $(gid "$3")\$" || fail "$what: group is not $3"
    has_re "70-eboard\.rules:[0-9]+ MODE 0660\$" || fail "$what: mode is not 0660"
    has_re '^TAGS=.*:systemd:' || fail "$what: no systemd tag"
    has_re '^TAGS=.*:uaccess:' || fail "$what: no uaccess tag"
    has "SYSTEMD_WANTS=eboardd-device@$4.service" ||
        fail "$what: SYSTEMD_WANTS is not eboardd-device@$4.service: $(grep SYSTEMD_WANTS "$T/out")"
    for d in $2; do
        has_re "70-eboard\.rules:[0-9]+ LINK 'eboard-$d-$5'\$" || fail "$what: no link eboard-$d-$5"
        has_re "^DEVLINKS=.*/dev/eboard-$d-$5( |\$)" || fail "$what: /dev/eboard-$d-$5 not in DEVLINKS"
    done
}

expect_nothing() { # WHAT
    if grep -E 'ID_MM_DEVICE_IGNORE|EBOARD_|eboardd-device|eboard-|70-eboard\.rules:[0-9]+ (GROUP|MODE|LINK)' "$T/out"; then
        fail "$1: a device that is not a board got board settings"
    fi
}

TTY=/sys/devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/ttyUSB0/tty/ttyUSB0
USB=/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2

# 1. Every id of the built-in drivers, as the drivers register them.
"$GEN" --ids >"$T/ids"
[ -s "$T/ids" ] || fail "the drivers register no USB id at all"
n=0
while read -r driver vid range access certainty; do
    drivers=$(awk -v v="$vid" -v p="$range" -v a="$access" '$2==v && $3==p && $4==a {print $1}' "$T/ids" | sort -u | tr '\n' ' ' | sed 's/ $//')
    # A range of product ids (PID-LAST, e.g. Chessnut's 8000-86ff): its first and last id.
    for pid in $(echo "$range" | tr '-' ' '); do
        n=$((n + 1))
        if [ "$access" = tty ]; then
            tty_device "$vid" "$pid" "EB$n" >"$T/dev/$n.umockdev"
            run_udev "$RULES" "$T/dev/$n.umockdev" "$TTY"
            expect_board "$driver $vid:$pid ($certainty)" "$drivers" dialout ttyUSB0 "EB$n"
        else
            usb_device "$vid" "$pid" "EB$n" >"$T/dev/$n.umockdev"
            run_udev "$RULES" "$T/dev/$n.umockdev" "$USB"
            expect_board "$driver $vid:$pid ($certainty)" "$drivers" plugdev bus-usb-001-002 "EB$n"
        fi
    done
done <"$T/ids"
echo "checked $n USB ids of the built-in drivers"

# 2. A USB-serial adapter nobody registered (Prolific PL2303 id) is left alone.
while grep -q " 067b 2303 " "$T/ids"; do fail "067b:2303 is registered now; pick another id"; break; done
tty_device 067b 2303 XYZ >"$T/dev/other.umockdev"
run_udev "$RULES" "$T/dev/other.umockdev" "$TTY"
expect_nothing "067b:2303 tty"

# 3. Rules from an id table: a libusb board, an id two drivers claim, a board without serial
#    number (the link names the USB port instead).
cat >"$T/table" <<TABLE
# test table
alpha 1209 0001 libusb certain
alpha 1209 0002 tty certain
beta 1209 0002 tty uncertain
TABLE
"$GEN" --from-ids "$T/table" -o "$T/table.rules"
usb_device 1209 0001 SN42 >"$T/dev/libusb.umockdev"
run_udev "$T/table.rules" "$T/dev/libusb.umockdev" "$USB"
expect_board "libusb board 1209:0001" alpha plugdev bus-usb-001-002 SN42
tty_device 1209 0002 SN43 >"$T/dev/shared.umockdev"
run_udev "$T/table.rules" "$T/dev/shared.umockdev" "$TTY"
expect_board "id of two drivers 1209:0002" "alpha beta" dialout ttyUSB0 SN43
tty_device 1209 0002 "" >"$T/dev/noserial.umockdev"
run_udev "$T/table.rules" "$T/dev/noserial.umockdev" "$TTY"
port=$(sed -n 's/^ID_PATH_TAG=//p' "$T/out")
[ -n "$port" ] || fail "no ID_PATH_TAG for a serial-less board"
expect_board "board without serial number" "alpha beta" dialout ttyUSB0 "$port"
# The tty rules do not touch the USB device node of a tty board, nor the other way round.
tty_device 1209 0001 SN44 >"$T/dev/crossed.umockdev"
run_udev "$T/table.rules" "$T/dev/crossed.umockdev" "$TTY"
expect_nothing "tty of an id registered for libusb"

if [ $failures -ne 0 ]; then
    echo "$failures failures; last udevadm output:"
    cat "$T/out"
    exit 1
fi
echo "udev rules: all checks passed"
