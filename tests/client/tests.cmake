# eboardctl links the client library only (issue 18: not eboard_daemon with SQLite, drivers and
# speech). Two checks: its CMake link line, walked through every library it links (a library
# that brings in eboard_daemon again is caught before anything is built), and the binary's
# shared libraries (ldd), which would name SQLite, libusb, libserialport, espeak-ng or
# speech-dispatcher if any part of the daemon were linked in.
set(EBOARD_CTL_FORBIDDEN eboard_daemon eboard_daemon_core eboard_emulators eboard_drivers eboard_drivers_impl
  eboard_drivers_emu eboard_speech eboard_access SQLite::SQLite3 PkgConfig::LIBUSB PkgConfig::LIBSERIALPORT)
set(eboard_ctl_seen)
set(eboard_ctl_todo eboardctl)
while(eboard_ctl_todo)
  list(POP_FRONT eboard_ctl_todo lib)
  if(lib IN_LIST eboard_ctl_seen)
    continue()
  endif()
  list(APPEND eboard_ctl_seen ${lib})
  if(TARGET ${lib})
    get_target_property(deps ${lib} LINK_LIBRARIES)
    get_target_property(ideps ${lib} INTERFACE_LINK_LIBRARIES)
    foreach(dep IN LISTS deps ideps)
      # $<LINK_ONLY:x>, $<LINK_LIBRARY:WHOLE_ARCHIVE,x>: the library named inside.
      string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" dep "${dep}")
      string(REGEX REPLACE "^\\$<LINK_LIBRARY:[A-Z_]+,(.*)>$" "\\1" dep "${dep}")
      if(dep AND NOT dep MATCHES "-NOTFOUND$" AND NOT dep MATCHES "^\\$<")
        list(APPEND eboard_ctl_todo ${dep})
      endif()
    endforeach()
  endif()
endwhile()
set(eboard_ctl_bad)
foreach(lib IN LISTS EBOARD_CTL_FORBIDDEN)
  if(lib IN_LIST eboard_ctl_seen)
    list(APPEND eboard_ctl_bad ${lib})
  endif()
endforeach()
add_test(NAME "client: eboardctl's link line names no library of the daemon (CMake)"
  COMMAND ${CMAKE_COMMAND} "-DBAD=${eboard_ctl_bad}" "-DSEEN=${eboard_ctl_seen}"
          -P ${CMAKE_CURRENT_LIST_DIR}/no_daemon_libs.cmake)
add_test(NAME "client: eboardctl loads no SQLite, libusb, libserialport, espeak-ng or speechd (ldd)"
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/no_daemon_libs.sh $<TARGET_FILE:eboardctl>)
