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
  # The one-pass fused path on llvmpipe: with one thread its tiles run in launch order and never
  # wait (GlSatSupport::lookback holds there), so the look-back's sums, flags and epochs are
  # checked even where waits cannot be.
  add_test(NAME test_gl_sat_single_pass
           COMMAND test_gl_sat
                   --gtest_filter=GlSat.FusedOnePass:GlSat.PolicyRefusesOnePassWithoutLookback)
  set_tests_properties(test_gl_sat_single_pass PROPERTIES ENVIRONMENT "LP_NUM_THREADS=1"
                       TIMEOUT 600 LABELS "gl")
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
