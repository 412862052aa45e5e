# The region library as users link it: libtopdown_region.a and
# libtopdown_region.so, each holding the objects of td_region and of every
# stage it depends on, with a CMake package (topdown::region,
# topdown::region_static) and a pkg-config file (topdown-region). Installed
# as the component "region", with the model files it reads at run time.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

topdown_link_closure(td_region region_stages)
set(region_objects "")
foreach(stage IN LISTS region_stages)
  get_target_property(kind ${stage} TYPE)
  if(kind STREQUAL "STATIC_LIBRARY")
    list(APPEND region_objects $<TARGET_OBJECTS:${stage}>)
  endif()
endforeach()

set(region_public_includes
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

add_library(topdown_region STATIC ${region_objects})
add_library(topdown_region_shared SHARED ${region_objects})
foreach(library topdown_region topdown_region_shared)
  target_include_directories(${library} INTERFACE ${region_public_includes})
  set_target_properties(${library} PROPERTIES OUTPUT_NAME topdown_region LINKER_LANGUAGE CXX)
endforeach()
set_target_properties(topdown_region PROPERTIES EXPORT_NAME region_static)
set_target_properties(topdown_region_shared PROPERTIES
  EXPORT_NAME region
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
# Users of the static library also link what its objects need.
target_link_libraries(topdown_region INTERFACE
  $<BUILD_INTERFACE:${PFM_LIBRARY}> $<INSTALL_INTERFACE:pfm> fmt::fmt)
# The shared library exports the public API only (C functions and the C++
# classes of topdown/region.hpp).
set(region_version_script ${PROJECT_SOURCE_DIR}/cmake/topdown_region.map)
target_link_libraries(topdown_region_shared PRIVATE ${PFM_LIBRARY} fmt::fmt)
target_link_options(topdown_region_shared PRIVATE
  -Wl,--version-script=${region_version_script} -Wl,-Bsymbolic-functions)
if(TOPDOWN_SANITIZE STREQUAL "")
  # Sanitizer runtimes may come from the program (clang), not the library.
  target_link_options(topdown_region_shared PRIVATE -Wl,--no-undefined)
endif()
set_target_properties(topdown_region_shared PROPERTIES LINK_DEPENDS ${region_version_script})

install(TARGETS topdown_region topdown_region_shared EXPORT topdownTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT region
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT region)
install(FILES ${PROJECT_SOURCE_DIR}/include/topdown/region.h ${PROJECT_SOURCE_DIR}/include/topdown/region.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/topdown COMPONENT region)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/models/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/topdown/models COMPONENT region)

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/topdown)
install(EXPORT topdownTargets NAMESPACE topdown:: DESTINATION ${config_dir} COMPONENT region)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/topdownConfig.cmake.in
  ${PROJECT_BINARY_DIR}/topdownConfig.cmake INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/topdownConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/topdownConfig.cmake ${PROJECT_BINARY_DIR}/topdownConfigVersion.cmake
  DESTINATION ${config_dir} COMPONENT region)

# pkg-config: the prefix is found from the .pc file's own place, so that the
# files work wherever `cmake --install --prefix` put them.
file(RELATIVE_PATH pc_to_prefix "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" pc_to_prefix "${pc_to_prefix}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/topdown-region.pc.in ${PROJECT_BINARY_DIR}/topdown-region.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/topdown-region.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT region)
