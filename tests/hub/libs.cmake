target_link_libraries(test_${name} PRIVATE eboard_hub eboard_daemon eboard_mqtt)
# hub_process_test.cpp runs eboard-hub and eboardd, and reads /live/tournament.trf with eboard-standings.
add_dependencies(test_${name} eboard-hub eboardd eboard-standings)
# A clock that jumps (LD_PRELOAD into eboardd), for the test of a host whose time is set.
add_library(eboard_clock_shift SHARED ${CMAKE_SOURCE_DIR}/tests/support/clock_shift.c)
target_link_libraries(eboard_clock_shift PRIVATE ${CMAKE_DL_LIBS})
target_compile_definitions(eboard_clock_shift PRIVATE _GNU_SOURCE)
add_dependencies(test_${name} eboard_clock_shift)
target_compile_definitions(test_${name} PRIVATE EBOARD_CLOCK_SHIFT_LIB="$<TARGET_FILE:eboard_clock_shift>")
