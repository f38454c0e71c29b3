# The units, sysusers.d and tmpfiles.d fragments under systemd-analyze verify/security,
# systemd-sysusers and systemd-tmpfiles (offline, in a staging root).
add_test(NAME "systemd: units verify clean, exposure <= 2.0, sysusers and tmpfiles apply"
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/units_test.sh ${CMAKE_COMMAND} ${CMAKE_BINARY_DIR} ${CMAKE_INSTALL_PREFIX})
set_tests_properties("systemd: units verify clean, exposure <= 2.0, sysusers and tmpfiles apply"
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
