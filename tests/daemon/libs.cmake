target_link_libraries(test_${name} PRIVATE eboard_daemon)
# eboardctl_trf_test.cpp reads the exported TRF with standings/ and with eboard-standings.
target_link_libraries(test_${name} PRIVATE eboard_standings)
add_dependencies(test_${name} eboard-standings)
