# eboardd's library (store, events), the emulators through it, and SQLite for the integrity check.
find_package(SQLite3 REQUIRED)
target_link_libraries(test_${name} PRIVATE eboard_daemon SQLite::SQLite3)
