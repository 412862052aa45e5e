# One static library per pipeline stage. Each stage lists the stages it may
# use, so the data flow stays one-directional: a stage cannot include a later
# stage's headers without a link dependency that shows up in review (and the
# build checks it: cmake/stage_includes.cmake).
function(topdown_stage name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LIBS" ${ARGN})
  set_property(GLOBAL APPEND PROPERTY TOPDOWN_STAGES ${name})
  set_property(GLOBAL PROPERTY TOPDOWN_STAGE_DEPENDS_${name} ${ARG_DEPENDS})
  file(GLOB sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.cpp")
  if(sources)
    set(scope PUBLIC)
    add_library(td_${name} STATIC ${sources})
    set_target_properties(td_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  else()
    set(scope INTERFACE)  # headers only so far
    add_library(td_${name} INTERFACE)
  endif()
  target_include_directories(td_${name} ${scope} ${PROJECT_SOURCE_DIR}/src)
  foreach(dep IN LISTS ARG_DEPENDS)
    target_link_libraries(td_${name} ${scope} td_${dep})
  endforeach()
  if(ARG_LIBS)
    target_link_libraries(td_${name} ${scope} ${ARG_LIBS})
  endif()
endfunction()

# A test binary per stage: tests/<stage>/*_test.cpp.
function(topdown_stage_tests name)
  cmake_parse_arguments(ARG "" "" "DEPENDS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*_test.cpp")
  if(NOT sources)
    return()
  endif()
  add_executable(${name}_tests ${sources})
  target_link_libraries(${name}_tests PRIVATE td_${name} ${ARG_DEPENDS} GTest::gtest_main)
  target_compile_definitions(${name}_tests PRIVATE
    TOPDOWN_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    TOPDOWN_BINARY_DIR="${PROJECT_BINARY_DIR}")
  gtest_discover_tests(${name}_tests DISCOVERY_TIMEOUT 60
    PROPERTIES ENVIRONMENT "TOPDOWN_MODELS=${TOPDOWN_DATA_DIR}")
endfunction()

# td_<stage> targets that `target` links, directly or not, itself included.
function(topdown_link_closure target out)
  set(seen ${target})
  set(queue ${target})
  while(queue)
    list(POP_FRONT queue current)
    set(links "")
    get_target_property(kind ${current} TYPE)
    if(NOT kind STREQUAL "INTERFACE_LIBRARY")
      get_target_property(links ${current} LINK_LIBRARIES)
    endif()
    get_target_property(interface_links ${current} INTERFACE_LINK_LIBRARIES)
    foreach(link IN LISTS links interface_links)
      if(link MATCHES "^td_" AND TARGET ${link} AND NOT link IN_LIST seen)
        list(APPEND seen ${link})
        list(APPEND queue ${link})
      endif()
    endforeach()
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()
