# Sanitizer and fuzzing builds (docs/fuzzing.md).
#   -DTOPDOWN_SANITIZE=address,undefined   every target (libraries, tests, tools)
#   -DTOPDOWN_SANITIZE=thread              the same with ThreadSanitizer
#   -DTOPDOWN_FUZZ=ON                      the libFuzzer targets in fuzz/ (clang),
#                                          everything built with ASan and UBSan
set(TOPDOWN_SANITIZE "" CACHE STRING "Sanitizers for every target: address,undefined or thread (empty: none)")
option(TOPDOWN_FUZZ "Build the libFuzzer targets in fuzz/ (needs clang)" OFF)

if(TOPDOWN_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "TOPDOWN_FUZZ needs clang (libFuzzer); configure with "
                        "-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang, or run scripts/fuzz.sh")
  endif()
  if(TOPDOWN_SANITIZE STREQUAL "")
    set(TOPDOWN_SANITIZE address,undefined)
  elseif(NOT TOPDOWN_SANITIZE STREQUAL "address,undefined")
    message(FATAL_ERROR "TOPDOWN_FUZZ builds with address,undefined; leave TOPDOWN_SANITIZE empty")
  endif()
endif()

if(NOT TOPDOWN_SANITIZE STREQUAL "")
  add_compile_options(-fsanitize=${TOPDOWN_SANITIZE} -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${TOPDOWN_SANITIZE})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC's instrumentation makes -Wmaybe-uninitialized report libstdc++'s
    # <regex> and <functional> (false positives that -Werror would stop on).
    add_compile_options(-Wno-maybe-uninitialized)
  endif()
  if(TOPDOWN_SANITIZE MATCHES "undefined")
    # Undefined behaviour stops the program, so that a test or fuzz run fails on it.
    add_compile_options(-fno-sanitize-recover=undefined)
  endif()
endif()

if(TOPDOWN_FUZZ)
  # Coverage feedback for libFuzzer in every library the targets link.
  add_compile_options(-fsanitize=fuzzer-no-link)
  add_subdirectory(fuzz)
endif()
