# How tests start a program this build made. In a cross build
# (cmake/aarch64-linux-gnu.cmake) the programs run under
# CMAKE_CROSSCOMPILING_EMULATOR (qemu-user): ctest and gtest_discover_tests
# put it before a test's command themselves, but tests also start topdown
# and the demo through /bin/sh, execvp or Python, and without binfmt_misc
# the kernel cannot run a foreign binary. So there a script beside the
# build, emulated/<target>, runs the target under the emulator.
# TOPDOWN_EMULATOR: the emulator's command line as one string (empty in a
# native build), for the cmake -P check scripts that run what was built.
list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " TOPDOWN_EMULATOR)

# Sets `out_var` to the path to start `target` by: its binary, or that script.
function(topdown_runnable target out_var)
  if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
    set(${out_var} "$<TARGET_FILE:${target}>" PARENT_SCOPE)
    return()
  endif()
  set(script "${PROJECT_BINARY_DIR}/emulated/${target}")
  get_property(written GLOBAL PROPERTY TOPDOWN_RUNNABLE_${target})
  if(NOT written)
    file(GENERATE OUTPUT "${script}"
      CONTENT "#!/bin/sh\nexec ${TOPDOWN_EMULATOR} \"$<TARGET_FILE:${target}>\" \"$@\"\n"
      FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
    set_property(GLOBAL PROPERTY TOPDOWN_RUNNABLE_${target} TRUE)
  endif()
  set(${out_var} "${script}" PARENT_SCOPE)
endfunction()
