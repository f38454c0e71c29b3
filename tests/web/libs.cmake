target_link_libraries(test_${name} PRIVATE eboard_web eboard_web_quirks)
