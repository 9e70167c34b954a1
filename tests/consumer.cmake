# scandof as a dependency (included by tests/CMakeLists.txt): the install tree, the CMake package
# and the .deb packages, checked by building tests/consumer/ against them.
#   consumer_install           cmake --install of this build into <build>/consumer/prefix
#   consumer_find_package      tests/consumer built with find_package(scandof) against that prefix,
#                              then run (GPU checks where a device is; CPU references always)
#   consumer_add_subdirectory  tests/consumer built with add_subdirectory(<source>): the library
#                              compiled again inside the consumer's build, CPU-only by default
#                              (SCANDOF_TEST_CONSUMER_SUBDIR_CUDA below)
#   demo_installed             the installed demo renders a frame with its installed resources
#   package_deb                cpack -G DEB into <build>/consumer/deb, dpkg-deb -c lists checked
# The consumer is plain C++ linking the static library: one small .cpp, no nvcc of its own.
if(NOT SCANDOF_INSTALL)
  return()
endif()
find_program(SCANDOF_DPKG_DEB dpkg-deb)
if(NOT SCANDOF_DPKG_DEB)
  if(SCANDOF_ALLOW_MISSING_TEST_TOOLS)
    message(WARNING "dpkg-deb (Debian package dpkg) missing: package_deb not registered")
  else()
    message(FATAL_ERROR "dpkg-deb (Debian package dpkg) missing for package_deb; configure with "
                        "-DSCANDOF_ALLOW_MISSING_TEST_TOOLS=ON to leave it out")
  endif()
endif()

set(_consumer_dir ${CMAKE_BINARY_DIR}/consumer)
set(_consumer_src ${CMAKE_CURRENT_SOURCE_DIR}/consumer)
# The consumer configures with this build's compilers and CUDA, so both modes test what CI built.
set(_consumer_opts -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER})
if(SCANDOF_CCACHE)
  list(APPEND _consumer_opts -DCMAKE_CXX_COMPILER_LAUNCHER=${SCANDOF_CCACHE})
endif()
if(SCANDOF_CUDA)
  get_filename_component(_consumer_cuda_root ${CUDAToolkit_BIN_DIR} DIRECTORY)
  list(APPEND _consumer_opts -DCUDAToolkit_ROOT=${_consumer_cuda_root})
endif()

add_test(NAME consumer_install
  COMMAND ${CMAKE_COMMAND} --install ${CMAKE_BINARY_DIR} --prefix ${_consumer_dir}/prefix)
set_tests_properties(consumer_install PROPERTIES FIXTURES_SETUP scandof_prefix TIMEOUT 300)

# The installed demo, away from the build folder: one headless frame (EGL; llvmpipe without a GPU)
# with the shaders and assets it finds in <prefix>/share/scandof, written to a PNG.
if(TARGET scandof)
  add_test(NAME demo_installed
    COMMAND sh -c "d='${_consumer_dir}/prefix'; rm -f '${_consumer_dir}/installed.png'; \
\"$d/bin/scandof\" --headless --size 64x48 --frames 1 --no-animate \
  --out '${_consumer_dir}/installed.png' && test -s '${_consumer_dir}/installed.png'")
  set_tests_properties(demo_installed PROPERTIES FIXTURES_REQUIRED scandof_prefix TIMEOUT 300
                                                 LABELS "demo")
endif()

add_test(NAME consumer_find_package
  COMMAND ${CMAKE_CTEST_COMMAND} --build-and-test ${_consumer_src} ${_consumer_dir}/find_package
          --build-generator ${CMAKE_GENERATOR} --build-noclean
          --build-options ${_consumer_opts} -DCMAKE_PREFIX_PATH=${_consumer_dir}/prefix
          --test-command ${_consumer_dir}/find_package/consumer)
set_tests_properties(consumer_find_package PROPERTIES FIXTURES_REQUIRED scandof_prefix
  TIMEOUT 600 PASS_REGULAR_EXPRESSION "consumer: all checks passed"
  FAIL_REGULAR_EXPRESSION "FAILED")

# With CUDA the subproject compiles all of the library's .cu files a second time: 9.7 minutes
# (7.7 min CPU) on 2 busy cores for sm_75 alone, and ccache cannot serve them from this build's
# objects (their -o/-MT paths differ: 0 hits in the first 14 compiles). CPU-only it takes about a minute
# uncached (5 s with ccache) and still checks what add_subdirectory users meet: the options
# defaulting OFF, scandof::scandof, the CPU references. The CUDA library is checked through the
# installed package (consumer_find_package), which runs the GPU checks where a device is.
option(SCANDOF_TEST_CONSUMER_SUBDIR_CUDA
       "consumer_add_subdirectory builds the library with CUDA (slow: all kernels compiled again)" OFF)
set(_consumer_sub_cuda OFF)
if(SCANDOF_CUDA AND SCANDOF_TEST_CONSUMER_SUBDIR_CUDA)
  set(_consumer_sub_cuda ON)
endif()
set(_consumer_sub_opts ${_consumer_opts} -DSCANDOF_SOURCE_DIR=${PROJECT_SOURCE_DIR}
    -DSCANDOF_CUDA=${_consumer_sub_cuda})
if(_consumer_sub_cuda)
  list(APPEND _consumer_sub_opts -DCMAKE_CUDA_COMPILER=${CMAKE_CUDA_COMPILER}
       "-DCMAKE_CUDA_ARCHITECTURES=${CMAKE_CUDA_ARCHITECTURES}")
endif()
add_test(NAME consumer_add_subdirectory
  COMMAND ${CMAKE_CTEST_COMMAND} --build-and-test ${_consumer_src} ${_consumer_dir}/add_subdirectory
          --build-generator ${CMAKE_GENERATOR} --build-noclean
          --build-options ${_consumer_sub_opts}
          --test-command ${_consumer_dir}/add_subdirectory/consumer)
set_tests_properties(consumer_add_subdirectory PROPERTIES
  TIMEOUT 1800 PASS_REGULAR_EXPRESSION "consumer: all checks passed"
  FAIL_REGULAR_EXPRESSION "FAILED")

if(SCANDOF_DPKG_DEB)
  add_test(NAME package_deb
    COMMAND ${CMAKE_COMMAND} -DCPACK=${CMAKE_CPACK_COMMAND} -DDPKG_DEB=${SCANDOF_DPKG_DEB}
            -DCONFIG=${CMAKE_BINARY_DIR}/CPackConfig.cmake -DOUT=${_consumer_dir}/deb
            -DDEMO=$<TARGET_EXISTS:scandof> -DGLSAT=$<TARGET_EXISTS:scandof_glsat>
            -P ${_consumer_src}/check_deb.cmake)
  set_tests_properties(package_deb PROPERTIES TIMEOUT 600)
endif()
