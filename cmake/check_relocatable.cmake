# ctest relocatable_binaries: the topdown program and libtopdown_region.so,
# as built and once installed into a fresh prefix, hold no path of the source
# tree (SOURCE_DIR) and find the models relative to themselves: the program
# lists a model without TOPDOWN_MODELS, from the build tree and installed.
# Sanitizers record source paths in their own data (-ffile-prefix-map does
# not map them), so a sanitized build (SANITIZE set), never installed, has
# only its models checked. EMULATOR runs a cross build's programs (qemu-user).
cmake_minimum_required(VERSION 3.20)
foreach(variable BUILD_DIR SOURCE_DIR WORK_DIR TOPDOWN REGION_LIBRARY)
  if(NOT ${variable})
    message(FATAL_ERROR "check_relocatable.cmake needs -D${variable}=...")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

include(${CMAKE_CURRENT_LIST_DIR}/run_checked.cmake)

run("installing" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
file(GLOB_RECURSE installed_libraries ${prefix}/*/libtopdown_region.so)
if(NOT EXISTS ${prefix}/bin/topdown OR NOT installed_libraries)
  message(FATAL_ERROR "the install lacks bin/topdown or libtopdown_region.so")
endif()

find_program(STRINGS strings REQUIRED)
set(binaries ${TOPDOWN} ${REGION_LIBRARY} ${prefix}/bin/topdown ${installed_libraries})
if(SANITIZE)
  message(STATUS "sanitized build (${SANITIZE}): source paths not checked")
  set(binaries "")
endif()
foreach(binary IN LISTS binaries)
  run("strings ${binary}" ${STRINGS} -a ${binary})
  string(FIND "${output}" "${SOURCE_DIR}" at)
  if(NOT at EQUAL -1)
    string(SUBSTRING "${output}" ${at} 200 context)
    string(REGEX REPLACE "\n.*" "" context "${context}")
    message(FATAL_ERROR "${binary} holds the source path ${SOURCE_DIR}: '${context}'")
  endif()
endforeach()

unset(ENV{TOPDOWN_MODELS})
separate_arguments(emulator UNIX_COMMAND "${EMULATOR}")  # qemu-user in a cross build
foreach(program ${TOPDOWN} ${prefix}/bin/topdown)
  run("${program} list --cpu zen5 without TOPDOWN_MODELS" ${emulator} ${program} list --cpu zen5)
  if(NOT output MATCHES "Frontend_Bound")
    message(FATAL_ERROR "${program} list --cpu zen5 printed:\n${output}")
  endif()
endforeach()
message(STATUS "built and installed topdown find their models without TOPDOWN_MODELS")
