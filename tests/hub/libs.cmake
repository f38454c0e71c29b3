target_link_libraries(test_${name} PRIVATE eboard_hub)
add_dependencies(test_${name} eboard-hub)
