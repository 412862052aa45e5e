# ctest stage_includes_check: runs the include check (CHECKER) on a small
# fake tree: stage b depends on a, which depends on c. b may include a and,
# through it, c; a may not include b; a test folder may include what its
# binary links.
cmake_minimum_required(VERSION 3.20)
if(NOT CHECKER OR NOT WORK_DIR)
  message(FATAL_ERROR "usage: cmake -DCHECKER=FILE -DWORK_DIR=DIR -P check_stage_includes_test.cmake")
endif()
file(REMOVE_RECURSE ${WORK_DIR})
file(WRITE ${WORK_DIR}/src/c/c.h "#pragma once\n")
file(WRITE ${WORK_DIR}/src/a/a.h "#pragma once\n#include \"c/c.h\"\n#include <vector>\n")
file(WRITE ${WORK_DIR}/src/b/b.cpp "#include \"b/b.h\"\n#include \"a/a.h\"\n#include \"c/c.h\"\n#include \"other/x.h\"\n")
file(WRITE ${WORK_DIR}/src/b/b.h "#pragma once\n")
file(WRITE ${WORK_DIR}/tests/a/a_test.cpp "#include \"a/a.h\"\n#include \"../support/tree.h\"\n")
file(WRITE ${WORK_DIR}/manifest.cmake [[
set(TOPDOWN_STAGE_NAMES c a b)
list(APPEND TOPDOWN_AREAS "src/c|stage c||c")
list(APPEND TOPDOWN_AREAS "src/a|stage a|c|a c")
list(APPEND TOPDOWN_AREAS "src/b|stage b|a|b a c")
list(APPEND TOPDOWN_AREAS "tests/a|test binary a_tests|a|a c")
]])

function(check expect_failure)
  execute_process(COMMAND ${CMAKE_COMMAND} -DMANIFEST=${WORK_DIR}/manifest.cmake -DSOURCE_DIR=${WORK_DIR} -P ${CHECKER}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(output "${out}${err}" PARENT_SCOPE)
  if(expect_failure AND status EQUAL 0)
    message(FATAL_ERROR "the check passed a stage that includes one it does not depend on:\n${out}${err}")
  elseif(NOT expect_failure AND NOT status EQUAL 0)
    message(FATAL_ERROR "the check failed a clean tree (${status}):\n${out}${err}")
  endif()
endfunction()

check(FALSE)

# a (which depends on c only) includes b; a's test includes b too.
file(APPEND ${WORK_DIR}/src/a/a.h "  #  include \"b/b.h\"\n")
file(APPEND ${WORK_DIR}/tests/a/a_test.cpp "#include \"b/b.h\"\n")
check(TRUE)
foreach(expected
    "src/a/a.h includes \"b/b.h\" of stage b, but stage a does not depend on b \\(DEPENDS: c; through them: a c\\)"
    "add b to the DEPENDS in src/a/CMakeLists.txt"
    "tests/a/a_test.cpp includes \"b/b.h\" of stage b, but test binary a_tests does not depend on b")
  if(NOT output MATCHES "${expected}")
    message(FATAL_ERROR "the check's message lacks '${expected}':\n${output}")
  endif()
endforeach()
if(output MATCHES "src/b/")
  message(FATAL_ERROR "the check blamed stage b, whose includes are declared:\n${output}")
endif()
message(STATUS "the include check passes the clean tree and names both violations")
