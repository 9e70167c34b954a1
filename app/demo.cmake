# The demo executable `scandof` (included by app/CMakeLists.txt). Host-only C++: the SATs come from
# the library's SatBuilder (CUDA builds) or from the CPU path (SCANDOF_CUDA=OFF, or no device).

# Sources by room, in the order a frame meets them (app/README.md follows one frame through them).
set(_scandof_sources
  run/main.cpp run/resources.cpp                        # entry, shaders/ + assets/
  run/window_loop.cpp run/headless_runner.cpp           # the two loops
  automation/automation.cpp automation/method_sheet.cpp  # what scripted runs ask of both loops
  automation/run_script.cpp                             # the loops' fixed points for both
  automation/soak.cpp automation/faults.cpp diagnostics/mem_probe.cpp  # --soak, --inject-fault
  frame/app.cpp                                         # one frame as a list of passes
  frame/camera.cpp frame/camera_input.cpp               # orbit camera (glm); mouse and keys
  passes/frame_targets.cpp                              # the targets every pass reads or writes
  passes/scene_pass.cpp passes/scene_layout.cpp passes/teapot.cpp  # scene (teapots, floor, wall)
  passes/planes_pass.cpp                                # deferred floor and wall shading
  passes/sat_stage.cpp passes/cuda_gl_interop.cpp       # SAT build (+ CUDA DoF), interop RAII
  passes/dof_pass.cpp passes/present_pass.cpp           # GL DoF passes; the window's blit
  passes/peel_pass.cpp                                  # the second depth layer (two-layer DoF)
  passes/tonemap_pass.cpp                               # HDR radiance -> 8 bits, auto exposure
  passes/image_io.cpp                                   # PNG files
  diagnostics/lens_reference.cpp diagnostics/quality.cpp  # the lens reference, scoring
  diagnostics/verify.cpp                                # --verify, --dump-sat
  diagnostics/sat_analysis.cpp diagnostics/report.cpp   # variant timings, float error; report
  diagnostics/live_compare.cpp                          # the overlay's live SAT timings
  ui/panels.cpp ui/dof_panel.cpp                        # panels: main, depth-of-field methods
  primitives/panel.cpp primitives/host.cpp)             # primitives benchmark (host half)
list(TRANSFORM _scandof_sources PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/)
# The app's logic that needs no GL context (settings and what a change rebuilds, the SAT backend
# and DoF path choices, the focus pull, the command line, the image diff, screenshot names): a library of its
# own, so app/tests/ test it without a display (tests/demo.cmake builds them: scandof_app_tests).
add_library(scandof_app_logic STATIC
  ${CMAKE_CURRENT_SOURCE_DIR}/frame/settings.cpp ${CMAKE_CURRENT_SOURCE_DIR}/frame/dof_path.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/frame/backend_choice.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/frame/focus_pull.cpp ${CMAKE_CURRENT_SOURCE_DIR}/run/cli.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/diagnostics/image_diff.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/automation/screenshot_path.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/automation/soak_options.cpp)
target_include_directories(scandof_app_logic PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}
                                                    ${PROJECT_SOURCE_DIR}/shaders)
target_link_libraries(scandof_app_logic PUBLIC scandof::kernels CLI11::CLI11
                                               nlohmann_json::nlohmann_json)
target_compile_options(scandof_app_logic PRIVATE -Wall -Wextra)
add_executable(scandof ${_scandof_sources})
# The primitives benchmark's GPU half calls CUB, so it needs nvcc: only in CUDA builds (without,
# primitives/host.cpp stubs it and the panel says it needs a CUDA device).
if(SCANDOF_CUDA)
  target_sources(scandof PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/primitives/bench.cu)
endif()
# app/ is the include root ("frame/settings.hpp"); shaders/ is on the include path for shared.h,
# the constants C++ and GLSL share.
target_include_directories(scandof PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/shaders)
target_link_libraries(scandof PRIVATE scandof_app_logic scandof::kernels scandof::glsat scandof_glad scandof_imgui scandof_stb
                                      scandof_egl PkgConfig::SCANDOF_GLFW CLI11::CLI11
                                      nlohmann_json::nlohmann_json glm::glm)
target_compile_options(scandof PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
                                       $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall>)
# Shaders and assets are found next to the executable (copied below) so the build folder can be
# carried to another machine; the source tree is the fallback, --resources DIR overrides both.
target_compile_definitions(scandof PRIVATE SCANDOF_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                                           $<$<CONFIG:Debug>:SCANDOF_GL_DEBUG=1>)
# A stamp that depends on every resource file, so editing a shader and rebuilding copies it even
# when the executable itself is up to date (a POST_BUILD step would not run then).
file(GLOB_RECURSE _scandof_resources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/shaders/*
     ${PROJECT_SOURCE_DIR}/assets/*)
set(_scandof_res_stamp ${CMAKE_CURRENT_BINARY_DIR}/scandof_resources.stamp)
add_custom_command(OUTPUT ${_scandof_res_stamp}
  COMMAND ${CMAKE_COMMAND} -E copy_directory ${PROJECT_SOURCE_DIR}/shaders $<TARGET_FILE_DIR:scandof>/shaders
  COMMAND ${CMAKE_COMMAND} -E copy_directory ${PROJECT_SOURCE_DIR}/assets $<TARGET_FILE_DIR:scandof>/assets
  COMMAND ${CMAKE_COMMAND} -E touch ${_scandof_res_stamp}
  DEPENDS ${_scandof_resources}
  COMMENT "Copying shaders/ and assets/ next to scandof")
add_custom_target(scandof_resources DEPENDS ${_scandof_res_stamp})
add_dependencies(scandof scandof_resources)
scandof_glsat_copy_shaders(scandof)  # the GL SAT backend's shaders: <bin>/glsat/shaders
