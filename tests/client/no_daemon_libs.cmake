# Fails when eboardctl's link line (walked at configure time, tests.cmake) reaches a library of
# the daemon: BAD lists them, SEEN is everything it links.
if(BAD)
  message(FATAL_ERROR "eboardctl links ${BAD} (it links: ${SEEN}); it should link eboard_client only")
endif()
message(STATUS "eboardctl links: ${SEEN}")
