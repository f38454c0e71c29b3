# The daemon's core library refers to no emulator (issue 18: the emulators are a library of
# their own, eboard_emulators, that the core does not need): no symbol of drivers/emu, of the
# emulated boards, their players or the simulation is undefined in libeboard_daemon_core.a.
add_test(NAME "daemon: eboard_daemon_core refers to no emulator, player or simulation (nm)"
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/core_without_emulators.sh $<TARGET_FILE:eboard_daemon_core>)
