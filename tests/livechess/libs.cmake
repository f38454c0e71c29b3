target_link_libraries(test_${name} PRIVATE eboard_daemon)
