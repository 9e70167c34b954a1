# .deb packages from the install components (cmake/install.cmake):
#   cpack -G DEB --config <build>/CPackConfig.cmake
# gives libscandof-dev (headers, static libraries, CMake package) and scandof (the demo, scantool,
# their resources under share/scandof). tests/consumer.cmake builds them and checks their contents.
set(CPACK_PACKAGE_NAME scandof)
set(CPACK_PACKAGE_VENDOR "scandof")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "GPU scan primitives: scan, stream compaction, radix sort, summed-area tables")
set(CPACK_PACKAGE_CONTACT "scandof maintainers <scandof@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL dev bin)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libscandof-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DESCRIPTION
    "scandof library: headers, static libraries and the CMake package (find_package(scandof)).\n\
Building against it needs the CUDA Toolkit the library was built with (CUDA::cudart_static),\n\
which Debian's main archive does not provide.")
# Depends are listed, not found by CPACK_DEBIAN_PACKAGE_SHLIBDEPS: dpkg-shlibdeps is in dpkg-dev,
# which scripts/setup.sh does not install. The dev package holds static archives (no ELF
# dependencies to scan); what a consumer needs are the -dev packages behind find_dependency.
if(TARGET scandof_glsat)
  set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "pkg-config, libglfw3-dev, libegl-dev")
endif()

set(CPACK_DEBIAN_BIN_PACKAGE_NAME scandof)
set(CPACK_COMPONENT_BIN_DESCRIPTION
    "scandof depth-of-field demo (scandof) and scan command-line tool (scantool).\n\
The CUDA runtime is linked statically: an NVIDIA driver is enough for the GPU paths, and\n\
without one both programs take their CPU paths.")
# What dpkg-shlibdeps gives for the demo and scantool built on Debian 12 (libglfw3-dev, libegl-dev,
# libstb-dev of scripts/setup.sh at run time), plus libgl1, which GLFW opens by dlopen (invisible
# to dpkg-shlibdeps). Without the demo, scantool needs the C and C++ runtimes only.
set(_scandof_bin_depends "libc6 (>= 2.34), libgcc-s1 (>= 3.0), libstdc++6 (>= 11)")
if(TARGET scandof)
  string(APPEND _scandof_bin_depends ", libglfw3 (>= 3.2), libegl1, libgl1, libstb0")
endif()
if(TARGET scandof_scene_io)  # --scene: glTF files through tinygltf's shared library
  string(APPEND _scandof_bin_depends ", libtinygltf2d (>= 2.7.0)")
endif()
if(TARGET PkgConfig::SCANDOF_FFMPEG)  # --record FILE.mp4 (Debian 12's FFmpeg 5.1 sonames)
  string(APPEND _scandof_bin_depends ", libavcodec59, libavformat59, libswscale6, libavutil57")
endif()
set(CPACK_DEBIAN_BIN_PACKAGE_DEPENDS "${_scandof_bin_depends}")
include(CPack)
