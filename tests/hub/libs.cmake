target_link_libraries(test_${name} PRIVATE eboard_hub)
add_dependencies(test_${name} eboard-hub)
add_dependencies(test_${name} eboard-standings) # hub_process_test.cpp reads /live/tournament.trf with it
