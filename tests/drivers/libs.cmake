target_link_libraries(test_${name} PRIVATE eboard_drivers eboard_drivers_emu)
