# The demo executable `scandof` (included by app/CMakeLists.txt). Host-only C++: the SATs come from
# the library's SatBuilder (CUDA builds) or from the CPU path (SCANDOF_CUDA=OFF, or no device).
#
# app/ is a house of rooms with one direction (app/README.md): each room is a static library that
# links only the rooms below it, and sees only their headers, so an upward include does not
# compile (tests/app_rooms.cmake shows it):
#   run -> automation -> ui -> diagnostics -> frame -> passes -> scene -> core
#   primitives -> core     (frame and the rooms above it may use primitives)
# A room's headers are found as "room/name.hpp" through a folder of its own in the build tree that
# holds a link named after the room and nothing else (scandof_app_room below), so a room's include
# path names its own folder and those of the rooms it links, never one above.
set(SCANDOF_APP_ROOMS core primitives scene passes frame diagnostics ui automation run)

function(scandof_app_room room)
  cmake_parse_arguments(R "" "" "SOURCES;LINKS;PRIVATE_LINKS" ${ARGN})
  set(view ${CMAKE_BINARY_DIR}/app_rooms/${room})
  file(MAKE_DIRECTORY ${view})
  if(NOT EXISTS ${view}/${room})
    file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR}/${room} ${view}/${room} SYMBOLIC)
  endif()
  list(TRANSFORM R_SOURCES PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/${room}/)
  add_library(scandof_app_${room} STATIC ${R_SOURCES})
  target_include_directories(scandof_app_${room} PUBLIC ${view})
  target_link_libraries(scandof_app_${room} PUBLIC ${R_LINKS} PRIVATE ${R_PRIVATE_LINKS})
  target_compile_options(scandof_app_${room} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
                                                     $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall>)
  target_compile_definitions(scandof_app_${room} PRIVATE $<$<CONFIG:Debug>:SCANDOF_GL_DEBUG=1>)
endfunction()

# Plain data and pure rules (settings and what a change rebuilds, requests, the camera, the SAT
# backend and DoF path choices, the focus pull, the physical lens, frame times, the run options,
# the fault hook): no GL, CUDA or ImGui, so app/tests/ test it without a display.
scandof_app_room(core
  SOURCES settings.cpp camera.cpp dof_path.cpp backend_choice.cpp focus_pull.cpp soak_options.cpp
          faults.cpp
  LINKS scandof::kernels glm::glm CLI11::CLI11 nlohmann_json::nlohmann_json)
target_include_directories(scandof_app_core PUBLIC ${PROJECT_SOURCE_DIR}/shaders)  # shared.h
# The primitives benchmark (library vs CUB). Its GPU half calls CUB, so it needs nvcc: only in
# CUDA builds (without, host.cpp stubs it and the window says it needs a CUDA device).
set(_prim_sources host.cpp run.cpp)
if(SCANDOF_CUDA)
  list(APPEND _prim_sources bench.cu)
endif()
scandof_app_room(primitives SOURCES ${_prim_sources} LINKS scandof_app_core)
# Your own scene: glTF 2.0 files read by Debian's tinygltf (libtinygltf-dev) into a GL-free
# description (gltf_loader.*), uploaded and drawn by mesh_scene.* in place of the teapots;
# camera-and-focus paths (camera_path.*, nlohmann-json); the teapot's patches; --record's encoder.
find_package(TinyGLTF CONFIG QUIET)
if(NOT TinyGLTF_FOUND)
  message(FATAL_ERROR "tinygltf not found: install libtinygltf-dev (scripts/setup.sh)")
endif()
scandof_app_room(scene
  SOURCES teapot.cpp gltf_loader.cpp camera_path.cpp mesh_scene.cpp video_writer.cpp
  LINKS scandof_app_core scandof::glsat
  PRIVATE_LINKS TinyGLTF::TinyGLTF scandof_stb)
# --record FILE.mp4 through FFmpeg's libraries where found; without them it says so.
# SCANDOF_VIDEO=OFF leaves them out on purpose: their codecs' shared libraries are about 150 MB,
# more than a build carried to a bare GPU machine may take (scripts/gpu/pack.sh).
option(SCANDOF_VIDEO "--record FILE.mp4 through FFmpeg's libraries, where found" ON)
if(SCANDOF_VIDEO)
  pkg_check_modules(SCANDOF_FFMPEG QUIET IMPORTED_TARGET GLOBAL libavformat libavcodec libswscale libavutil)
endif()
if(SCANDOF_VIDEO AND SCANDOF_FFMPEG_FOUND)
  target_link_libraries(scandof_app_scene PRIVATE PkgConfig::SCANDOF_FFMPEG)
  target_compile_definitions(scandof_app_scene PRIVATE SCANDOF_WITH_FFMPEG=1)
else()
  message(STATUS "scandof: FFmpeg's libraries not found: --record FILE.mp4 is refused "
                 "(scripts/setup.sh installs libavcodec-dev, libavformat-dev, libswscale-dev)")
endif()
# The passes a frame runs, each with its own timer, and the targets they share (GL, CUDA-GL).
scandof_app_room(passes
  SOURCES frame_targets.cpp scene_pass.cpp scene_layout.cpp planes_pass.cpp peel_pass.cpp
          sat_stage.cpp cuda_gl_interop.cpp cuda_dof_pass.cpp dof_pass.cpp cpu_dof_pass.cpp
          lens_reference.cpp tonemap_pass.cpp present_pass.cpp image_io.cpp mem_probe.cpp
          fail_allocation.cpp
  LINKS scandof_app_scene
  PRIVATE_LINKS scandof_stb)
# One frame as a list of passes (App), the camera path and the recording.
scandof_app_room(frame SOURCES app.cpp recorder.cpp scene_framing.cpp LINKS scandof_app_passes scandof_app_primitives)
# What is measured of a frame: the lens reference's score, verify, variant timings, the report.
scandof_app_room(diagnostics
  SOURCES frame_checks.cpp quality.cpp verify.cpp sat_analysis.cpp report.cpp live_compare.cpp
          image_diff.cpp
  LINKS scandof_app_frame scandof_provenance)
# Dear ImGui's panels, the Primitives window, mouse and keys.
scandof_app_room(ui
  SOURCES panels.cpp dof_panel.cpp primitives_window.cpp camera_input.cpp
  LINKS scandof_app_diagnostics scandof_imgui PkgConfig::SCANDOF_GLFW)
# What scripted runs ask of both loops: frame counts, screenshots, the soak, injected faults.
scandof_app_room(automation
  SOURCES automation.cpp run_script.cpp method_sheet.cpp soak.cpp faults.cpp screenshot_path.cpp
  LINKS scandof_app_ui)
# The entry's rooms: the command line, the two loops, where shaders/ and assets/ are.
scandof_app_room(run
  SOURCES cli.cpp window_loop.cpp headless_runner.cpp resources.cpp
  LINKS scandof_app_automation scandof_egl)
# Shaders and assets are found next to the executable (copied below) so the build folder can be
# carried to another machine; the source tree is the fallback, --resources DIR overrides both.
target_compile_definitions(scandof_app_run PRIVATE SCANDOF_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

add_executable(scandof ${CMAKE_CURRENT_SOURCE_DIR}/run/main.cpp)
target_link_libraries(scandof PRIVATE scandof_app_run)
target_compile_options(scandof PRIVATE -Wall -Wextra)
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
