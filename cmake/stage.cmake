# One static library per pipeline stage. Each stage lists the stages it may
# use, so the data flow stays one-directional: a stage cannot include a later
# stage's headers without a link dependency that shows up in review.
function(topdown_stage name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LIBS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.cpp")
  if(sources)
    set(scope PUBLIC)
    add_library(td_${name} STATIC ${sources})
    target_compile_definitions(td_${name} PRIVATE
      TOPDOWN_DATA_DIR="${TOPDOWN_DATA_DIR}"
      TOPDOWN_INSTALL_DATA_DIR="${TOPDOWN_INSTALL_DATA_DIR}")
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
