# The BLE transport's tests: the real drivers over the real sd-bus code against a fake BlueZ on
# a private dbus-daemon (fake_bluez.hpp), the boards played by the emulators.
if(NOT TARGET PkgConfig::LIBSYSTEMD_TESTS)
  pkg_check_modules(LIBSYSTEMD_TESTS REQUIRED IMPORTED_TARGET libsystemd)
endif()
target_link_libraries(test_${name} PRIVATE eboard_drivers eboard_drivers_emu eboard_rules PkgConfig::LIBSYSTEMD_TESTS)
target_include_directories(test_${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests/drivers)
