target_link_libraries(test_${name} PRIVATE eboard_standings)
find_package(nlohmann_json 3 REQUIRED)
target_link_libraries(test_${name} PRIVATE nlohmann_json::nlohmann_json)
add_dependencies(test_${name} eboard-standings) # tool_test.cpp runs the binary
