# tests/serialport: the real drivers through drivers/core's libserialport transport, against the
# wire-level emulators behind a fake USB serial port in a umockdev testbed
# (drivers/emu/umockdev/fake_tty.hpp). Like tests/usb, every
# test runs under umockdev's preload (umockdev-wrapper) from exec time on;
# catch_discover_tests uses CROSSCOMPILING_EMULATOR both to list and to run the tests.
target_link_libraries(test_${name} PRIVATE eboard_drivers eboard_emu_umockdev eboard_rules)
if(EBOARD_SANITIZE AND NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set_target_properties(test_${name} PROPERTIES CROSSCOMPILING_EMULATOR
    "/usr/bin/env;ASAN_OPTIONS=verify_asan_link_order=0;${UMOCKDEV_WRAPPER}")
else()
  set_target_properties(test_${name} PROPERTIES CROSSCOMPILING_EMULATOR "${UMOCKDEV_WRAPPER}")
endif()
