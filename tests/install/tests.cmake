# cmake --install with --prefix and with DESTDIR: what is installed where (tests/install).
include(GNUInstallDirs)
add_test(NAME "install: cmake --install puts binaries, rules, units, fragments, man pages and eboardd.conf in place"
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/install_test.sh ${CMAKE_COMMAND} ${CMAKE_BINARY_DIR}
          ${CMAKE_INSTALL_PREFIX} ${CMAKE_INSTALL_FULL_SYSCONFDIR})
set_tests_properties("install: cmake --install puts binaries, rules, units, fragments, man pages and eboardd.conf in place"
  PROPERTIES TIMEOUT 120)
