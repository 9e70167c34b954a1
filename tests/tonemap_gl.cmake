# test_gl_tonemap (included by tests/CMakeLists.txt): the tone-map pass (app/passes/tonemap_pass.*)
# on whatever EGL offers (Mesa llvmpipe surfaceless in CI) against the CPU gold scandof::tone_map,
# auto exposure included. Built from the pass's one source, not the whole demo: it needs only the
# GL helpers of glsat/ and the kernels library's gold.
if(TARGET scandof AND TARGET scandof_glsat AND TARGET GTest::gtest)
  add_executable(test_gl_tonemap ${PROJECT_SOURCE_DIR}/app/tests/tonemap_pass_gl.cpp
                                 ${PROJECT_SOURCE_DIR}/app/passes/tonemap_pass.cpp)
  target_include_directories(test_gl_tonemap PRIVATE ${PROJECT_SOURCE_DIR}/app
                                                     ${PROJECT_SOURCE_DIR}/shaders)
  target_link_libraries(test_gl_tonemap PRIVATE scandof_glsat scandof::kernels GTest::gtest
                                                GTest::gtest_main)
  target_compile_definitions(test_gl_tonemap PRIVATE SCANDOF_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  target_compile_options(test_gl_tonemap PRIVATE -Wall -Wextra)
  gtest_discover_tests(test_gl_tonemap DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
                       PROPERTIES TIMEOUT 600 LABELS "gl")
endif()
