# eboard_embed_text_files(TARGET GLOB TEMPLATE OUTPUT): compiles text files into TARGET, each as
# {"NAME", R"(TEXT)"} (NAME = the file name without extension), through TEMPLATE, a .cpp.in
# with @EBOARD_EMBEDDED_ENTRIES@ where the entries go. Editing a file re-runs CMake. Used for
# the built-in rules profiles (rules/profiles/) and tournament profiles (standings/profiles/).
function(eboard_embed_text_files target glob template output)
  file(GLOB files CONFIGURE_DEPENDS ${glob})
  set(EBOARD_EMBEDDED_ENTRIES "")
  foreach(f ${files})
    get_filename_component(name ${f} NAME_WE)
    file(READ ${f} text)
    string(APPEND EBOARD_EMBEDDED_ENTRIES "    {\"${name}\", R\"eboard-profile(${text})eboard-profile\"},\n")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${f})
  endforeach()
  configure_file(${template} ${output} @ONLY)
  target_sources(${target} PRIVATE ${output})
endfunction()
