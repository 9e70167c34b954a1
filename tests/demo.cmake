# Unit tests of the demo's logic that needs no GL context (app/tests/: settings changes, focus
# pull, the DoF path choice, command-line errors); they live under app/ because nothing under
# tests/ includes a header of the app.
if(TARGET scandof_app_run)
  file(GLOB _app_tests CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/app/tests/*_test.cpp)
  add_executable(scandof_app_tests ${_app_tests})
  target_link_libraries(scandof_app_tests PRIVATE scandof_app_run GTest::gtest GTest::gtest_main)
  gtest_discover_tests(scandof_app_tests DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
                       PROPERTIES LABELS "demo;unit")
endif()

# The demo's command line, its GL backend and its scene shading (included by tests/CMakeLists.txt;
# the screenshot tests are in tests/demo_screens.cmake). Without CUDA or a device the demo takes its
# CPU fallback, which is what CI tests.
if(TARGET scandof)
  # SCANDOF_XVFB_RUN, SCANDOF_SYS_PYTHON: tests/tools.cmake
  if(NOT SCANDOF_XVFB_RUN OR NOT SCANDOF_SYS_PYTHON)
    message(STATUS "demo tests skipped: xvfb-run or /usr/bin/python3 missing")
  else()
    set(_dir ${CMAKE_CURRENT_BINARY_DIR}/demo_screenshot)
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
    # sizes for a paper variant and the fused path, and float tables of the HDR frame (verify
    # compares the exact tables, which the gather clamps at the bokeh's threshold); the report
    # must name the GL backend.
    add_test(NAME demo_backend_gl
      COMMAND sh -c "S='$<TARGET_FILE:scandof>'; set -e; \
for cfg in '--size 33x17 --variant naive' '--size 1001x777 --variant work-efficient' \
           '--size 193x65 --variant warp-shuffle' '--size 1921x1079 --method fused' \
           '--size 97x61 --format f32 --dof gather' '--size 97x61 --format f32 --dof spread'; do \
  out=$(\"$S\" --headless --frames 2 --no-animate --backend gl --verify $cfg 2>&1); \
  echo \"$out\" | grep -q 'SAT verify OK' || { echo \"$cfg: $out\"; exit 1; }; \
  echo \"$out\" | grep -q 'GL compute on' || { echo \"$cfg: not the GL backend: $out\"; exit 1; }; \
done")
    set_tests_properties(demo_backend_gl PROPERTIES TIMEOUT 600 LABELS "demo;gl")
    # A GPU backend failing mid-run (--inject-fault interop-register@N: here GL compute's build, on
    # a CUDA machine a real failed CUDA-GL registration) gives way to the next backend for the rest
    # of the run, headless and in the window: the run ends normally, its frame verifies, the log
    # says so once, the report names the fallback. Headless --backend cuda that CUDA cannot serve
    # is refused (exit 2) naming why; where CUDA shares the EGL context it runs.
    add_test(NAME demo_backend_fallback
      COMMAND sh -c "S='$<TARGET_FILE:scandof>'; d='${_dir}'; mkdir -p \"$d\"; \
out=$(\"$S\" --headless --size 97x61 --frames 6 --no-animate --backend gl --verify \
      --inject-fault interop-register@3 --report \"$d/fallback.json\" 2>&1) || { echo \"exit $?: $out\"; exit 1; }; \
[ \"$(echo \"$out\" | grep -c 'falls back for the rest of the run')\" = 1 ] || { echo \"not said once: $out\"; exit 1; }; \
echo \"$out\" | grep -q 'SAT verify OK' || { echo \"no verify: $out\"; exit 1; }; \
grep -q '\"sat_backend\": \"CPU fallback: no GL compute: it failed earlier in this run' \"$d/fallback.json\" \
  || { echo 'the report does not name the fallback'; exit 1; }; \
out=$(${SCANDOF_XVFB_RUN} -a -s '-screen 0 640x480x24' \"$S\" --backend gl --no-animate --frames 6 --exit \
      --inject-fault interop-register@3 --screenshot \"$d/fallback_window.png\" 2>&1) || { echo \"window: exit $?: $out\"; exit 1; }; \
echo \"$out\" | grep -q 'falls back for the rest of the run' || { echo \"window: $out\"; exit 1; }; \
[ -s \"$d/fallback_window.png\" ] || { echo 'window: no screenshot'; exit 1; }; \
out=$(\"$S\" --headless --size 32x24 --frames 1 --no-animate --backend cuda 2>&1); rc=$?; \
if [ $rc -eq 2 ]; then echo \"$out\" | grep -q -- '--backend cuda refused: no usable CUDA device\\|--backend cuda refused: the GL context' \
  || { echo \"refusal without its reason: $out\"; exit 1; }; \
else [ $rc -eq 0 ] && echo \"$out\" | grep -q 'SAT backend: CUDA on' || { echo \"--backend cuda: exit $rc: $out\"; exit 1; }; fi")
    set_tests_properties(demo_backend_fallback PROPERTIES TIMEOUT 300 LABELS "demo;gl")
    # Deferred floor and wall (shade_planes.comp) against forward: auto picks forward on llvmpipe,
    # so the deferred pass is asked for by name at odd sizes (1x anisotropy: llvmpipe's anisotropic
    # textureGrad costs seconds a frame) and --verify must find the two images alike.
    add_test(NAME demo_scene_shading
      COMMAND sh -c "S='$<TARGET_FILE:scandof>'; set -e; mkdir -p '${_dir}'; \
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
