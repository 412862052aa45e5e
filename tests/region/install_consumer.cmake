# Installs the region component into a fresh prefix and builds a small
# consumer against it the two ways users do: find_package(topdown) (the
# static library) and pkg-config (the shared one, from C). Both programs must
# run: open a session, or say why not (no PMU on a VM without vPMU).
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/run_checked.cmake)

run("installing the region component" ${CMAKE_COMMAND} --install ${BUILD_DIR} --component region --prefix ${prefix})
foreach(expected include/topdown/region.h include/topdown/region.hpp share/topdown/models/zen5.model
                 share/topdown/models/events)
  if(NOT EXISTS ${prefix}/${expected})
    message(FATAL_ERROR "the install lacks ${expected}")
  endif()
endforeach()
file(GLOB_RECURSE pc_files ${prefix}/*/topdown-region.pc)
file(GLOB_RECURSE shared_libraries ${prefix}/*/libtopdown_region.so)
if(NOT pc_files OR NOT shared_libraries)
  message(FATAL_ERROR "the install lacks topdown-region.pc or libtopdown_region.so")
endif()
list(GET pc_files 0 pc_file)
get_filename_component(pc_dir ${pc_file} DIRECTORY)

# The shared library exports the API, not the stages inside it.
find_program(NM nm)
if(NM)
  list(GET shared_libraries 0 shared_library)
  run("listing the exported symbols" ${NM} -DC --defined-only ${shared_library})
  if(output MATCHES "topdown::(cpu|expr|model|events|schedule|collect|counts|eval)::")
    message(FATAL_ERROR "libtopdown_region.so exports internal symbols: ${CMAKE_MATCH_0}")
  endif()
  if(NOT output MATCHES "td_region_open" OR NOT output MATCHES "topdown::region::Session::begin")
    message(FATAL_ERROR "libtopdown_region.so lacks its API:\n${output}")
  endif()
endif()

set(ENV{PKG_CONFIG_PATH} ${pc_dir})
set(consumer_flags -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
if(TOOLCHAIN_FILE)
  # A cross build's consumer is cross-built too, and run under EMULATOR.
  list(APPEND consumer_flags -DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN_FILE})
endif()
separate_arguments(emulator UNIX_COMMAND "${EMULATOR}")
if(SANITIZE)
  # A sanitized library needs a program built with the same sanitizers.
  set(link_flags "-fsanitize=${SANITIZE}")
  if(C_COMPILER MATCHES "clang")
    # clang's C driver leaves out UBSan's C++ half, which the library's vptr
    # checks call, and the C++ library it needs.
    string(APPEND link_flags " -fsanitize-link-c++-runtime -lstdc++")
  endif()
  list(APPEND consumer_flags -DCMAKE_C_FLAGS=-fsanitize=${SANITIZE} -DCMAKE_CXX_FLAGS=-fsanitize=${SANITIZE}
       "-DCMAKE_EXE_LINKER_FLAGS=${link_flags}")
endif()
run("configuring the consumer" ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${WORK_DIR}/build -G ${CMAKE_GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix} ${consumer_flags})
run("building the consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
foreach(program consumer_cpp consumer_c)
  # The shared library finds the models beside itself; a program the static
  # one is linked into, outside the prefix configured, is told where they are.
  if(program STREQUAL "consumer_cpp")
    set(ENV{TOPDOWN_MODELS} ${prefix}/share/topdown/models)
  else()
    unset(ENV{TOPDOWN_MODELS})
  endif()
  run("running ${program}" ${emulator} ${WORK_DIR}/build/${program})
  if(NOT output MATCHES "^(opened|error 1: .*no hardware PMU)")
    message(FATAL_ERROR "${program} printed: ${output}")
  endif()
  message(STATUS "${program}: ${output}")
endforeach()
