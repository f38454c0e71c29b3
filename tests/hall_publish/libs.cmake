# eboardd's library (the hall's topics and options), the MQTT client for the tests'
# subscribers, and eboardd itself (the tests start it).
target_link_libraries(test_${name} PRIVATE eboard_daemon eboard_mqtt)
add_dependencies(test_${name} eboardd)
