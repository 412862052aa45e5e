# cmake -DMANIFEST=FILE -DSOURCE_DIR=DIR -P check_stage_includes.cmake
# Fails when a file of an area (a stage, the CLI, a test folder) includes
# "<stage>/..." of a stage that the area does not depend on. MANIFEST sets
# TOPDOWN_STAGE_NAMES and TOPDOWN_AREAS ("folder|what|declared|allowed",
# space-separated stage lists); cmake/stage_includes.cmake writes it.
cmake_minimum_required(VERSION 3.20)
if(NOT MANIFEST OR NOT SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DMANIFEST=FILE -DSOURCE_DIR=DIR -P check_stage_includes.cmake")
endif()
include(${MANIFEST})
set(stage_names ${TOPDOWN_STAGE_NAMES})

set(problems "")
foreach(area IN LISTS TOPDOWN_AREAS)
  string(REPLACE "|" ";" fields "${area}")
  list(GET fields 0 folder)
  list(GET fields 1 what)
  list(GET fields 2 declared)
  list(GET fields 3 allowed_text)
  separate_arguments(allowed UNIX_COMMAND "${allowed_text}")
  if(declared STREQUAL "")
    set(declared "none")
  endif()
  file(GLOB files ${SOURCE_DIR}/${folder}/*.h ${SOURCE_DIR}/${folder}/*.hpp ${SOURCE_DIR}/${folder}/*.cpp)
  list(SORT files)
  foreach(file IN LISTS files)
    file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"/]+/[^\"]*\"")
    foreach(line IN LISTS includes)
      string(REGEX MATCH "\"(([^\"/]+)/[^\"]*)\"" quoted "${line}")
      set(header ${CMAKE_MATCH_1})
      set(stage ${CMAKE_MATCH_2})
      if(stage IN_LIST stage_names AND NOT stage IN_LIST allowed)
        file(RELATIVE_PATH shown ${SOURCE_DIR} ${file})
        string(APPEND problems
          "${shown} includes \"${header}\" of stage ${stage}, but ${what} does not depend on ${stage} "
          "(DEPENDS: ${declared}; through them: ${allowed_text}); add ${stage} to the DEPENDS in "
          "${folder}/CMakeLists.txt if the data flow allows it, or drop the include\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(problems)
  # NOTICE prints the lines as they are (FATAL_ERROR would rewrap them).
  message(NOTICE "${problems}")
  message(FATAL_ERROR "a stage includes a stage it does not depend on (the lines above)")
endif()
