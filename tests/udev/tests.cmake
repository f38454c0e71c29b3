# The generated rules under the real udev (udevadm test on umockdev devices, in a private
# mount namespace): needs root, udev, umockdev; exits 77 (skipped) with the reason otherwise.
add_test(NAME "udev: the generated rules under udevadm test (umockdev, private namespace)"
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/udev_rules_test.sh
          $<TARGET_FILE:eboard-udev-rules> ${CMAKE_BINARY_DIR}/udev/70-eboard.rules)
set_tests_properties("udev: the generated rules under udevadm test (umockdev, private namespace)"
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
