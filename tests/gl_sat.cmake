# test_gl_sat: the OpenGL compute SAT backend against the CPU reference, on whatever EGL offers
# (Mesa llvmpipe through EGL surfaceless in CI, the GPU's driver elsewhere). Not in the *.cpp
# glob above: it links the GL library of app/gl_sat.cmake.
if(TARGET scandof_glsat)
  add_executable(test_gl_sat ${CMAKE_CURRENT_SOURCE_DIR}/gl/test_gl_sat.cpp)
  target_include_directories(test_gl_sat PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(test_gl_sat PRIVATE scandof_glsat GTest::gtest GTest::gtest_main)
  target_compile_definitions(test_gl_sat PRIVATE SCANDOF_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  gtest_discover_tests(test_gl_sat DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
                       PROPERTIES TIMEOUT 1800 LABELS "gl")
endif()
