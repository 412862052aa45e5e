# Cross-compiles for arm64 with Debian's cross toolchain (g++-aarch64-linux-gnu)
# against the arm64 multiarch -dev packages (scripts/ci-arm64.sh installs both),
# and runs what is built under qemu-user, so that ctest and gtest_discover_tests
# work on an x86 machine without binfmt_misc.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Debian's multiarch layout: arm64 libraries and CMake packages under
# /usr/lib/aarch64-linux-gnu, headers shared in /usr/include.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# TOPDOWN_CROSS_PKG_CONFIG_DIRS: pkg-config files of arm64 libraries whose
# -dev package cannot be installed beside the machine's own (scripts/ci-arm64.sh
# writes yaml-cpp's), searched first.
set(CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TOPDOWN_CROSS_PKG_CONFIG_DIRS)
set(ENV{PKG_CONFIG_LIBDIR} "${TOPDOWN_CROSS_PKG_CONFIG_DIRS}:/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")

find_program(TOPDOWN_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64 REQUIRED)
# No -L /usr/aarch64-linux-gnu: the arm64 -dev packages bring Debian's arm64
# libc (libc6:arm64), whose loader is where the programs name it and finds
# the arm64 libraries itself; and with -L, qemu-user 7.2 hangs opening a
# pipe through /proc/self/fd/N.
set(CMAKE_CROSSCOMPILING_EMULATOR ${TOPDOWN_QEMU_AARCH64})
