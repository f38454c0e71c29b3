# The manual pages: linted (mandoc, groff) and checked against the binaries' --help.
add_test(NAME "man: pages lint clean and document every option and command of the binaries"
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/man_test.sh ${CMAKE_SOURCE_DIR}/man ${CMAKE_BINARY_DIR}/bin)
set_tests_properties("man: pages lint clean and document every option and command of the binaries"
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
