# tests/usb: the libusb paths against fake USB devices in a umockdev testbed. Every test runs
# under umockdev's preload (umockdev-wrapper), which must be in the process from exec time on
# (umockdev's usbfs emulation); catch_discover_tests uses CROSSCOMPILING_EMULATOR both to
# list and to run the tests.
target_link_libraries(test_${name} PRIVATE eboard_drivers eboard_emu_umockdev eboard_rules)
if(EBOARD_SANITIZE AND NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  # gcc's shared ASan runtime must come first; the preload comes before it (its link-order
  # check is turned off for that).
  set_target_properties(test_${name} PROPERTIES CROSSCOMPILING_EMULATOR
    "/usr/bin/env;ASAN_OPTIONS=verify_asan_link_order=0;${UMOCKDEV_WRAPPER}")
else()
  set_target_properties(test_${name} PROPERTIES CROSSCOMPILING_EMULATOR "${UMOCKDEV_WRAPPER}")
endif()
