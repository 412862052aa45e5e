# The build checks that each stage includes only the stages it depends on:
# a stage's sources and headers, the CLI's and each test folder's may
# include "<stage>/..." only for stages in their link closure (the DEPENDS of
# topdown_stage and of the targets, followed transitively). The check runs
# before anything is compiled and fails the build naming the file, the
# stage it includes and the DEPENDS declared (cmake/check_stage_includes.cmake).

# One line of the manifest: folder|what it is|declared DEPENDS|allowed stages.
function(topdown_include_area manifest_var folder what target declared)
  topdown_link_closure(${target} closure)
  list(FILTER closure INCLUDE REGEX "^td_")
  list(TRANSFORM closure REPLACE "^td_" "")
  list(JOIN declared " " declared_text)
  list(JOIN closure " " allowed_text)
  set(${manifest_var} "${${manifest_var}}list(APPEND TOPDOWN_AREAS \"${folder}|${what}|${declared_text}|${allowed_text}\")\n"
      PARENT_SCOPE)
endfunction()

# Called once every stage, the CLI and the tests are defined.
function(topdown_check_stage_includes)
  get_property(stages GLOBAL PROPERTY TOPDOWN_STAGES)
  list(JOIN stages " " stage_text)
  set(manifest "set(TOPDOWN_STAGE_NAMES ${stage_text})\n")
  set(targets "")
  foreach(stage IN LISTS stages)
    get_property(declared GLOBAL PROPERTY TOPDOWN_STAGE_DEPENDS_${stage})
    topdown_include_area(manifest src/${stage} "stage ${stage}" td_${stage} "${declared}")
    list(APPEND targets td_${stage})
  endforeach()
  if(TARGET topdown)
    get_target_property(links topdown LINK_LIBRARIES)
    list(FILTER links INCLUDE REGEX "^td_")
    list(TRANSFORM links REPLACE "^td_" "")
    topdown_include_area(manifest src/cli "the topdown program (src/cli)" topdown "${links}")
    list(APPEND targets topdown)
  endif()
  foreach(stage IN LISTS stages ITEMS cli)
    if(TARGET ${stage}_tests)
      get_target_property(links ${stage}_tests LINK_LIBRARIES)
      list(FILTER links INCLUDE REGEX "^td_")
      list(TRANSFORM links REPLACE "^td_" "")
      topdown_include_area(manifest tests/${stage} "test binary ${stage}_tests" ${stage}_tests "${links}")
      list(APPEND targets ${stage}_tests)
    endif()
  endforeach()

  set(manifest_file ${PROJECT_BINARY_DIR}/stage_includes_manifest.cmake)
  file(CONFIGURE OUTPUT ${manifest_file} CONTENT "${manifest}")
  set(scanned "")
  foreach(folder IN LISTS stages ITEMS cli)
    file(GLOB files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${folder}/*.h ${PROJECT_SOURCE_DIR}/src/${folder}/*.cpp
         ${PROJECT_SOURCE_DIR}/tests/${folder}/*.h ${PROJECT_SOURCE_DIR}/tests/${folder}/*.cpp)
    list(APPEND scanned ${files})
  endforeach()
  set(script ${PROJECT_SOURCE_DIR}/cmake/check_stage_includes.cmake)
  set(stamp ${PROJECT_BINARY_DIR}/stage_includes.checked)
  add_custom_command(OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DMANIFEST=${manifest_file} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -P ${script}
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    DEPENDS ${script} ${manifest_file} ${scanned}
    COMMENT "Checking that each stage includes only the stages it depends on"
    VERBATIM)
  add_custom_target(stage_includes ALL DEPENDS ${stamp})
  # Before anything compiles, whichever target is built.
  foreach(target IN LISTS targets)
    get_target_property(kind ${target} TYPE)
    if(NOT kind STREQUAL "INTERFACE_LIBRARY")
      add_dependencies(${target} stage_includes)
    endif()
  endforeach()
endfunction()
