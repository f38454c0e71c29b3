target_link_libraries(test_${name} PRIVATE eboard_daemon eboard_web_quirks)
add_dependencies(test_${name} eboard-hub)
