target_link_libraries(test_${name} PRIVATE eboard_access eboard_gcc_quirks)
