# Install rules and the CMake package (find_package(scandof)), included by the top-level
# CMakeLists.txt when SCANDOF_INSTALL is on. Two components, which CPack turns into two .deb files
# (cmake/packaging.cmake):
#   dev  headers, static libraries, lib/cmake/scandof/   -> libscandof-dev
#   bin  scantool, the demo and its resources           -> scandof
#
# Static libraries only. The library's API hands cudaStream_t, device pointers and texture objects
# across its boundary, and the project links the CUDA runtime statically (CMAKE_CUDA_RUNTIME_LIBRARY
# Static: no libcudart.so to ship, which no Debian main package provides). A shared libscandof
# would carry its own copy of that runtime beside the consumer's, two runtime instances in one
# process sharing handles, or would force every user onto the shared cudart. A static archive
# costs a bigger consumer binary and nothing else.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SCANDOF_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/scandof)
# Where the installed demo finds shaders/, assets/ and glsat/shaders/ (app/run/resources.cpp
# looks in <bin>/../share/scandof), and where glsat users find the GL SAT shaders.
set(SCANDOF_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/scandof)
set(SCANDOF_INSTALL_GLSAT_SHADERDIR ${CMAKE_INSTALL_DATADIR}/scandof-glsat/shaders)

# --- headers: the public API. scan.cuh (for user-defined types and operators) includes block/,
# device/ and warp/, so those ship too; util/ is the programs' own helpers and stays out.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/kernels/include/scandof
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh"
        PATTERN "util" EXCLUDE)

set(_scandof_export_targets scandof_kernels)
if(TARGET scandof_glsat)
  # glsat's headers include <glad/gl.h>, the loader generated at build time: it ships under
  # include/scandof/third_party (scandof::glad), away from any other glad in /usr/include.
  list(APPEND _scandof_export_targets scandof_glsat scandof_glad scandof_egl)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/glsat/include/scandof
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)
  install(DIRECTORY ${CMAKE_BINARY_DIR}/generated/glad/include/
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/scandof/third_party COMPONENT dev)
  # The shaders glsat's SatBuilder reads at run time, for glsat users (scandof_GLSAT_SHADER_DIR).
  # Apart from the demo's copy under share/scandof: the two .debs must not own the same files.
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/glsat/shaders/
          DESTINATION ${SCANDOF_INSTALL_GLSAT_SHADERDIR} COMPONENT dev)
endif()
install(TARGETS ${_scandof_export_targets} EXPORT scandofTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT scandofTargets NAMESPACE scandof:: DESTINATION ${SCANDOF_INSTALL_CMAKEDIR}
        COMPONENT dev)

# What the config records about this build (read by cmake/scandofConfig.cmake.in).
set(SCANDOF_CONFIG_WITH_CUDA ${SCANDOF_CUDA})
if(SCANDOF_CUDA)
  set(SCANDOF_CONFIG_CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}")
else()
  set(SCANDOF_CONFIG_CUDA_ARCHITECTURES "")
endif()
if(TARGET scandof_glsat)
  set(SCANDOF_CONFIG_WITH_GLSAT ON)
else()
  set(SCANDOF_CONFIG_WITH_GLSAT OFF)
endif()
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/scandofConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/scandofConfig.cmake
  INSTALL_DESTINATION ${SCANDOF_INSTALL_CMAKEDIR}
  PATH_VARS SCANDOF_INSTALL_GLSAT_SHADERDIR)
# 0.x: a minor release may break the API, so only the same major.minor matches.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/scandofConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/scandofConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/scandofConfigVersion.cmake
        DESTINATION ${SCANDOF_INSTALL_CMAKEDIR} COMPONENT dev)

# --- programs
if(TARGET scantool)
  install(TARGETS scantool RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT bin)
endif()
if(TARGET scandof AND NOT TARGET scandof_glsat)
  message(FATAL_ERROR "install.cmake: the demo without scandof_glsat")
endif()
if(TARGET scandof)
  install(TARGETS scandof RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT bin)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/shaders ${PROJECT_SOURCE_DIR}/assets
          DESTINATION ${SCANDOF_INSTALL_DATADIR} COMPONENT bin)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/glsat/shaders/
          DESTINATION ${SCANDOF_INSTALL_DATADIR}/glsat/shaders COMPONENT bin)
endif()
