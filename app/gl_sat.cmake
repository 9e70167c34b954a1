# The OpenGL compute SAT backend (issue 12) as a library of its own, so its tests and benchmark
# link it without the demo: scandof_glsat (the builder plus the GL helpers and contexts it uses)
# and bench/glsatbench. Shaders are read from a folder given at run time.
if(NOT TARGET scandof_glad)
  include(${PROJECT_SOURCE_DIR}/third_party/deps.cmake)
endif()
add_library(scandof_glsat STATIC
  ${CMAKE_CURRENT_SOURCE_DIR}/gl_sat_builder.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/gl_util.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/context.cpp)
target_include_directories(scandof_glsat PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
# shaders/shared.h: the texture unit the builder and the fused shaders agree on.
target_include_directories(scandof_glsat PRIVATE ${PROJECT_SOURCE_DIR}/shaders)
target_link_libraries(scandof_glsat PUBLIC scandof::kernels scandof_glad scandof_egl
                                           PkgConfig::SCANDOF_GLFW)
target_compile_options(scandof_glsat PRIVATE -Wall -Wextra)

add_executable(glsatbench ${PROJECT_SOURCE_DIR}/bench/glsatbench.cpp)
target_link_libraries(glsatbench PRIVATE scandof_glsat CLI11::CLI11 nlohmann_json::nlohmann_json)
target_include_directories(glsatbench PRIVATE ${PROJECT_SOURCE_DIR}/bench)  # rotation.hpp
target_compile_options(glsatbench PRIVATE -Wall -Wextra)
# Beside the other benchmarks (scripts/gpu/pack.sh looks there); shaders default to the copy
# next to the executable, then to the source tree.
set_target_properties(glsatbench PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
target_compile_definitions(glsatbench PRIVATE SCANDOF_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
# shared.h too: build_compute_program pastes it into every shader.
file(GLOB _glsat_shaders CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/shaders/sat_*
     ${PROJECT_SOURCE_DIR}/shaders/shared.h)
set(_glsat_stamp ${CMAKE_BINARY_DIR}/bench/glsat_shaders.stamp)
add_custom_command(OUTPUT ${_glsat_stamp}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/bench/shaders
  COMMAND ${CMAKE_COMMAND} -E copy ${_glsat_shaders} ${CMAKE_BINARY_DIR}/bench/shaders/
  COMMAND ${CMAKE_COMMAND} -E touch ${_glsat_stamp}
  DEPENDS ${_glsat_shaders}
  COMMENT "Copying shaders/sat_* next to glsatbench")
add_custom_target(glsatbench_shaders DEPENDS ${_glsat_stamp})
add_dependencies(glsatbench glsatbench_shaders)
