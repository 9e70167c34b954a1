# Unit tests of the demo's logic that needs no GL context (app/tests/: settings changes, focus
# pull, the DoF path choice, command-line errors); they live under app/ because nothing under
# tests/ includes a header of the app.
if(TARGET scandof_app_logic)
  file(GLOB _app_tests CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/app/tests/*_test.cpp)
  add_executable(scandof_app_tests ${_app_tests})
  target_link_libraries(scandof_app_tests PRIVATE scandof_app_logic GTest::gtest GTest::gtest_main)
  gtest_discover_tests(scandof_app_tests DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
                       PROPERTIES LABELS "demo;unit")
endif()

# CI screenshot test of the windowed demo (included by tests/CMakeLists.txt): under Xvfb with Mesa,
# render a still frame focused near the camera and the same frame unblurred, then check with
# tests/check_screenshot.py that the teapots show, the focus region is sharp and the far region
# is blurred. Without CUDA or a device the demo takes its CPU fallback, which is what CI tests.
if(TARGET scandof)
  find_program(SCANDOF_XVFB_RUN xvfb-run)
  find_program(SCANDOF_SYS_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
  if(NOT SCANDOF_XVFB_RUN OR NOT SCANDOF_SYS_PYTHON)
    message(STATUS "demo_screenshot test skipped: xvfb-run or /usr/bin/python3 missing")
  else()
    set(_dir ${CMAKE_CURRENT_BINARY_DIR}/demo_screenshot)
    set(_common --size 960x540 --frames 30 --exit --no-animate --no-vsync --focus 9 --aperture 12
                --max-radius 24)
    string(JOIN " " _common_s ${_common})
    add_test(NAME demo_screenshot
      COMMAND sh -c "mkdir -p '${_dir}' && \
${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' ${_common_s} --screenshot '${_dir}/dof.png' && \
${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' ${_common_s} --view sharp --screenshot '${_dir}/sharp.png' && \
${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_screenshot.py' '${_dir}/dof.png' '${_dir}/sharp.png'")
    set_tests_properties(demo_screenshot PROPERTIES TIMEOUT 600 LABELS "demo;screenshot")
    # Resize while running (targets and registrations re-created at odd sizes), then screenshot:
    # the picture must have the final window size and not be blank.
    add_test(NAME demo_resize
      COMMAND sh -c "mkdir -p '${_dir}' && \
${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' --size 800x450 --frames 25 --exit --no-vsync --exercise-resize --screenshot '${_dir}/resized.png' && \
${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_screenshot.py' --size 517x389 '${_dir}/resized.png'")
    set_tests_properties(demo_resize PROPERTIES TIMEOUT 300 LABELS "demo")
    # The primitives benchmark: headless --primitives at 2^16 into the report (with a device every
    # entry must match the CPU reference; without one the report must say it needs a device), then
    # the window with the Primitives panel open (--primitives) must still render.
    add_test(NAME demo_primitives
      COMMAND sh -c "mkdir -p '${_dir}' && \
'$<TARGET_FILE:scandof>' --headless --size 320x240 --frames 3 --primitives --prim-size 16 --report '${_dir}/primitives.json' && \
${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_screenshot.py' --primitives '${_dir}/primitives.json' && \
${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' --size 960x540 --frames 10 --exit --no-vsync --primitives --prim-size 12 --screenshot-ui '${_dir}/primitives_ui.png' && \
${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_screenshot.py' --size 960x540 '${_dir}/primitives_ui.png'")
    set_tests_properties(demo_primitives PROPERTIES TIMEOUT 300 LABELS "demo")
    # The UI leaves the scene in view: at 1280x720 the frame with the panels (and the timing overlay)
    # against the same frame without them differs in at most 25% of the pixels. At 900x560 with every
    # section expanded (--ui-selftest) the sidebar scrolls and every control, the Primitives
    # window's too, must have been wholly visible inside its window and the display (exit 1 if not).
    add_test(NAME demo_ui_coverage
      COMMAND sh -c "mkdir -p '${_dir}' && \
${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' --size 1280x720 --frames 8 --exit --no-animate --no-vsync --screenshot '${_dir}/ui_scene.png' --screenshot-ui '${_dir}/ui_panels.png' && \
${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_screenshot.py' --ui-coverage 0.25 '${_dir}/ui_scene.png' '${_dir}/ui_panels.png'")
    set_tests_properties(demo_ui_coverage PROPERTIES TIMEOUT 300 LABELS "demo;ui")
    add_test(NAME demo_ui_reach
      COMMAND sh -c "mkdir -p '${_dir}' && \
${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' --size 900x560 --frames 1000 --no-animate --no-vsync --primitives --ui-selftest --screenshot-ui '${_dir}/ui_reach.png'")
    set_tests_properties(demo_ui_reach PROPERTIES TIMEOUT 300 LABELS "demo;ui"
                         FAIL_REGULAR_EXPRESSION "NOT reachable")
    # The command line: help exits 0; bad values (NaN, out of range, unknown names or flags) exit 2;
    # a failed write (/dev/full) exits 1 with a message naming the file.
    add_test(NAME demo_cli
      COMMAND sh -c "S='$<TARGET_FILE:scandof>'; \
\"$S\" --help | grep -q -- '--max-radius' || exit 1; \
for a in '--focus nan' '--aperture inf' '--frames 0' '--frames 99999999999999999999' '--size 0x5' \
         '--tess 65' '--variant nope' '--method nope' '--view nope' '--prim-size 1000' '--bogus' \
         '--dof nope' '--shape nope' '--layers 1' '--disc-k 9' '--reference 0' '--view-preset nope' \
         '--msaa 0' '--anisotropy 0.5' '--autofocus nope' '--scene-shading nope'; do \
  \"$S\" $a >/dev/null 2>&1; rc=$?; [ $rc -eq 2 ] || { echo \"$a: exit $rc, want 2\"; exit 1; }; done; \
for a in '--exit' '--screenshot x.png' '--report x.json'; do \
  \"$S\" $a >/dev/null 2>&1; rc=$?; [ $rc -eq 2 ] || { echo \"window $a: exit $rc, want 2\"; exit 1; }; done; \
msg=$(\"$S\" --headless --frames 1 --size 16384x16384 2>&1); rc=$?; \
[ $rc -eq 1 ] && echo \"$msg\" | grep -q 'beyond this GL implementation' \
  || { echo \"16384x16384: exit $rc: $msg\"; exit 1; }; \
\"$S\" --help | grep -q 'Errors and exit codes' || { echo 'no exit codes in --help'; exit 1; }; \
for a in '--size 4294967360x64' '--frames 4294967297x' '--max-radius nan' '--focus -1' '--size 640x'; do \
  \"$S\" --headless $a >/dev/null 2>&1; rc=$?; [ $rc -eq 2 ] || { echo \"$a: exit $rc, want 2\"; exit 1; }; done; \
d=$(mktemp -d); echo keep > \"$d/old.png\"; \
for t in \"$d\" \"$d/missing/x.png\" \"$d/old.png/x.png\"; do \
  msg=$(\"$S\" --headless --size 32x24 --frames 1 --no-animate --out \"$t\" 2>&1); rc=$?; \
  [ $rc -eq 1 ] && echo \"$msg\" | grep -q 'cannot write' || { echo \"--out $t: exit $rc: $msg\"; exit 1; }; done; \
[ \"$(cat \"$d/old.png\")\" = keep ] || { echo 'an existing file was damaged'; exit 1; }; \
ls -a \"$d\" | grep -q tmp- && { echo 'a temporary file was left behind'; exit 1; }; rm -rf \"$d\"; \
for f in --out --report --dump-sat; do \
  msg=$(\"$S\" --headless --size 64x48 --frames 1 --no-animate $f /dev/full 2>&1); rc=$?; \
  [ $rc -ne 0 ] && echo \"$msg\" | grep -q 'cannot write /dev/full' \
    || { echo \"$f /dev/full: exit $rc: $msg\"; exit 1; }; done")
    set_tests_properties(demo_cli PROPERTIES TIMEOUT 300 LABELS "demo")
    # The GL compute backend inside the demo (llvmpipe here): headless --backend gl --verify at odd
    # sizes for a paper variant and the fused path; the report must name the GL backend.
    add_test(NAME demo_backend_gl
      COMMAND sh -c "S='$<TARGET_FILE:scandof>'; set -e; \
for cfg in '--size 33x17 --variant naive' '--size 1001x777 --variant work-efficient' \
           '--size 193x65 --variant warp-shuffle' '--size 1921x1079 --method fused'; do \
  out=$(\"$S\" --headless --frames 2 --no-animate --backend gl --verify $cfg 2>&1); \
  echo \"$out\" | grep -q 'SAT verify OK' || { echo \"$cfg: $out\"; exit 1; }; \
  echo \"$out\" | grep -q 'GL compute on' || { echo \"$cfg: not the GL backend: $out\"; exit 1; }; \
done")
    set_tests_properties(demo_backend_gl PROPERTIES TIMEOUT 600 LABELS "demo;gl")
    # Deferred floor and wall (shade_planes.comp) against forward: auto picks forward on llvmpipe,
    # so the deferred pass is asked for by name at odd sizes (1x anisotropy: llvmpipe's anisotropic
    # textureGrad costs seconds a frame) and --verify must find the two images alike.
    add_test(NAME demo_scene_shading
      COMMAND sh -c "S='$<TARGET_FILE:scandof>'; set -e; \
for size in 33x17 1x1 321x181; do \
  out=$(\"$S\" --headless --frames 2 --no-animate --anisotropy 1 --scene-shading deferred \
        --verify --size $size --report '${_dir}/shading.json' 2>&1); \
  echo \"$out\" | grep -q 'scene shading agrees' || { echo \"$size: $out\"; exit 1; }; \
  grep -q '\"scene_shading\": \"deferred planes\"' '${_dir}/shading.json' \
    || { echo \"$size: report does not say deferred\"; exit 1; }; \
done; \
\"$S\" --headless --frames 1 --no-animate --size 64x48 --report '${_dir}/shading.json' >/dev/null 2>&1; \
grep -q '\"scene_shading_asked\": \"auto\"' '${_dir}/shading.json'")
    set_tests_properties(demo_scene_shading PROPERTIES TIMEOUT 300 LABELS "demo")
  endif()
endif()
