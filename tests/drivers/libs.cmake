# The drivers stand on base/ only; the tests also play real games through the rules core.
target_link_libraries(test_${name} PRIVATE eboard_drivers eboard_drivers_emu eboard_rules)
