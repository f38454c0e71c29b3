#!/bin/sh
# Fails when the eboardctl binary ($1) needs a shared library of the daemon's: SQLite, libusb,
# libserialport, espeak-ng, speech-dispatcher (or systemd, which only the daemon uses).
set -eu
bin=$1
libs=$(ldd "$bin") || { echo "ldd $bin failed"; exit 1; }
echo "$libs"
bad=$(printf '%s\n' "$libs" | grep -E 'libsqlite3|libusb|libserialport|libespeak|libspeechd|libsystemd' || true)
if [ -n "$bad" ]; then
    echo "eboardctl needs libraries of the daemon:"
    echo "$bad"
    exit 1
fi
