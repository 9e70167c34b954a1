# test_gl_sat: the OpenGL compute SAT backend against the CPU reference, on whatever EGL offers
# (Mesa llvmpipe through EGL surfaceless in CI, the GPU's driver elsewhere). Not in the *.cpp
# glob above: it links the GL SAT library, glsat/.
if(TARGET scandof_glsat)
  add_executable(test_gl_sat ${CMAKE_CURRENT_SOURCE_DIR}/gl/test_gl_sat.cpp)
  target_include_directories(test_gl_sat PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(test_gl_sat PRIVATE scandof_glsat GTest::gtest GTest::gtest_main)
  target_compile_definitions(test_gl_sat PRIVATE SCANDOF_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  gtest_discover_tests(test_gl_sat DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
                       PROPERTIES TIMEOUT 1800 LABELS "gl")
  # The one-pass fused path's look-back under llvmpipe with 1, 2, 4 and 8 threads (more threads
  # than this machine has cores too: the OS then preempts tiles that others wait on, and the
  # waiters compute those tiles' sums themselves, the decoupled fallback). With one thread tiles
  # never wait; with several they do, and every table is compared word for word with the CPU gold
  # (a scout that took an aggregate for an inclusive sum passed with one thread and failed with
  # four): GlSat.FusedOnePassSweep's 200 back-to-back builds at 1x1, 33x17, 1001x777 and
  # 1920x1080, the fallback forced on every tile, the hammer. A skip fails these: they exist to
  # run the one pass. The timeout covers llvmpipe compiling the one-pass programs (a minute or two
  # each on a busy machine, seconds from Mesa's shader cache). The filter takes
  # GlSat.FusedOnePassHdr* too: the RGBA16F one pass (2 words a pixel where RGBA8 has one, its own
  # program).
  foreach(_threads 1 2 4 8)
    add_test(NAME test_gl_sat_lookback_threads_${_threads}
             COMMAND test_gl_sat
                     --gtest_filter=GlSat.FusedOnePass*:GlSat.FusedBackToBackOnePass:GlSat.PolicyRefusesOnePassWithoutLookback)
    set_tests_properties(test_gl_sat_lookback_threads_${_threads} PROPERTIES
                         ENVIRONMENT "LP_NUM_THREADS=${_threads};SCANDOF_GLSAT_HAMMER=2;SCANDOF_GLSAT_SWEEP_BUILDS=200"
                         TIMEOUT 1500 LABELS "gl" FAIL_REGULAR_EXPRESSION "\\[  SKIPPED \\]"
                         RESOURCE_LOCK scandof_llvmpipe_threads)
  endforeach()
endif()
# Every shader variant through glslangValidator (Debian glslang-tools; tests/tools.cmake finds it):
# the only check here of the subgroup variants that llvmpipe (no GL_KHR_shader_subgroup) cannot run.
if(SCANDOF_GLSLANG AND SCANDOF_SYS_PYTHON)
  add_test(NAME glsat_shaders_compile
           COMMAND ${SCANDOF_SYS_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/gl/check_glsat_shaders.py
                   ${PROJECT_SOURCE_DIR}/glsat/shaders ${SCANDOF_GLSLANG})
  set_tests_properties(glsat_shaders_compile PROPERTIES TIMEOUT 300 LABELS "gl")
else()
  message(STATUS "glsat_shaders_compile test skipped: glslangValidator (glslang-tools) missing")
endif()
