#!/bin/sh
# Fails when the static library $1 (eboard_daemon_core) needs a symbol of the emulators:
# drivers::emu, EmuBoard, EmuPlayer, EmulatedBoards, Simulation, SimulatedPlayer.
set -eu
lib=$1
undefined=$(nm -C -u "$lib") || { echo "nm $lib failed"; exit 1; }
bad=$(printf '%s\n' "$undefined" |
      grep -E 'drivers::emu::|daemon::(EmuBoard|EmuPlayer|EmulatedBoards|Simulation|SimulatedPlayer)\b|embedded_simulation_pgn' |
      sort -u || true)
if [ -n "$bad" ]; then
    echo "$lib needs symbols of the emulators:"
    echo "$bad"
    exit 1
fi
echo "$lib: no emulator symbol needed"
