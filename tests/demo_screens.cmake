# Screenshot tests of the windowed demo under Xvfb with Mesa (the demo's CPU fallback without CUDA
# or a device, which is what CI tests): a still frame focused near the camera against the same
# frame unblurred (tests/check_screenshot.py: the teapots show, the focus region is sharp, the far
# region blurred), the resize, the primitives window and the UI's reach.
if(TARGET scandof)
  if(NOT SCANDOF_XVFB_RUN OR NOT SCANDOF_SYS_PYTHON)
    message(STATUS "demo screenshot tests skipped: xvfb-run or /usr/bin/python3 missing")
  else()
    set(_dir ${CMAKE_CURRENT_BINARY_DIR}/demo_screenshot)
    set(_common --size 960x540 --frames 30 --exit --no-animate --no-vsync --focus 9 --aperture 12
                --max-radius 24)
    string(JOIN " " _common_s ${_common})
    add_test(NAME demo_screenshot
      COMMAND sh -c "mkdir -p '${_dir}' && \
${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' --ldr ${_common_s} --screenshot '${_dir}/dof.png' && \
${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' --ldr ${_common_s} --view sharp --screenshot '${_dir}/sharp.png' && \
${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_screenshot.py' '${_dir}/dof.png' '${_dir}/sharp.png'")
    set_tests_properties(demo_screenshot PROPERTIES TIMEOUT 600 LABELS "demo;screenshot")
    # The same check on the window's default pipeline, HDR (RGBA16F radiance, the tone-map pass,
    # auto exposure): the frame the window shows is the tone-mapped display image.
    add_test(NAME demo_screenshot_hdr
      COMMAND sh -c "mkdir -p '${_dir}' && \
${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' ${_common_s} --screenshot '${_dir}/dof_hdr.png' && \
${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' ${_common_s} --view sharp --screenshot '${_dir}/sharp_hdr.png' && \
${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_screenshot.py' '${_dir}/dof_hdr.png' '${_dir}/sharp_hdr.png'")
    set_tests_properties(demo_screenshot_hdr PROPERTIES TIMEOUT 600 LABELS "demo;screenshot;hdr")
    # Resize while running (targets and registrations re-created at odd sizes), then screenshot:
    # the picture must have the final window size and match a fresh start at that size with the
    # same settings. Both stills (--no-animate) render the same frame, so on one renderer they came
    # out identical (llvmpipe: not one pixel apart), while a different focus (--focus 9 for the
    # default 20) moved the mean by 18 levels and 34% of the pixels by more than 24: the defaults of
    # --match (mean 1 level, 0.2% of the pixels) leave rounding room and catch a stale or misplaced
    # region of a few thousand pixels.
    add_test(NAME demo_resize
      COMMAND sh -c "mkdir -p '${_dir}' && \
${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' --ldr --size 800x450 --frames 25 --exit --no-vsync --no-animate --exercise-resize --screenshot '${_dir}/resized.png' && \
${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' --ldr --size 517x389 --frames 25 --exit --no-vsync --no-animate --screenshot '${_dir}/resized_ref.png' && \
${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_screenshot.py' --size 517x389 '${_dir}/resized.png' && \
${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_screenshot.py' --match '${_dir}/resized_ref.png' '${_dir}/resized.png'")
    set_tests_properties(demo_resize PROPERTIES TIMEOUT 300 LABELS "demo")
    # The primitives benchmark: headless --primitives at 2^16 into the report (with a device every
    # entry must match the CPU reference; without one the report must say it needs a device), then
    # the window with the Primitives panel open (--primitives), panels and all (--screenshot-ui),
    # against a second run of the same settings. Only the timings differ between two such runs: on
    # llvmpipe their text moved the mean by 0.17-0.34 levels and 0.11-0.25% of the pixels by more
    # than 24; a different focus moved 9.5 levels and 14.7%, the window without the Primitives
    # panel 13.9 levels and 18.2%. Limits of 1.5 levels and 1.5% sit between with room both ways.
    add_test(NAME demo_primitives
      COMMAND sh -c "mkdir -p '${_dir}' && \
'$<TARGET_FILE:scandof>' --ldr --headless --size 320x240 --frames 3 --primitives --prim-size 16 --report '${_dir}/primitives.json' && \
${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_screenshot.py' --primitives '${_dir}/primitives.json' && \
${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' --ldr --size 960x540 --frames 10 --exit --no-vsync --no-animate --primitives --prim-size 12 --screenshot-ui '${_dir}/primitives_ui.png' && \
${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' --ldr --size 960x540 --frames 10 --exit --no-vsync --no-animate --primitives --prim-size 12 --screenshot-ui '${_dir}/primitives_ui_ref.png' && \
${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_screenshot.py' --size 960x540 '${_dir}/primitives_ui.png' && \
${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_screenshot.py' --match '${_dir}/primitives_ui_ref.png' '${_dir}/primitives_ui.png' --max-mean 1.5 --max-off 0.015")
    set_tests_properties(demo_primitives PROPERTIES TIMEOUT 300 LABELS "demo")
    # The UI leaves the scene in view: at 1280x720 the frame with the panels (and the timing overlay)
    # against the same frame without them differs in at most 25% of the pixels. At 900x560 with every
    # section expanded (--ui-selftest) the sidebar scrolls and every control, the Primitives
    # window's too, must have been wholly visible inside its window and the display (exit 1 if not)
    # and the run must end with the self-test's verdict "UI selftest: all N controls reachable": a
    # run whose --frames ran out before the self-test finished exits 1 saying it did not finish.
    # Then the same at 1280x720 in HDR (the default pipeline, a longer sidebar whose content grows
    # in its last frames: the self-test once ended before the scroll range caught up).
    add_test(NAME demo_ui_coverage
      COMMAND sh -c "mkdir -p '${_dir}' && \
${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' --ldr --size 1280x720 --frames 8 --exit --no-animate --no-vsync --screenshot '${_dir}/ui_scene.png' --screenshot-ui '${_dir}/ui_panels.png' && \
${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_screenshot.py' --ui-coverage 0.25 '${_dir}/ui_scene.png' '${_dir}/ui_panels.png'")
    set_tests_properties(demo_ui_coverage PROPERTIES TIMEOUT 300 LABELS "demo;ui")
    add_test(NAME demo_ui_reach
      COMMAND sh -c "mkdir -p '${_dir}' || exit 1; \
out=$(${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' --ldr --size 900x560 --frames 1000 --no-animate --no-vsync --primitives --ui-selftest --screenshot-ui '${_dir}/ui_reach.png' 2>&1); rc=$?; \
echo \"$out\"; [ $rc -eq 0 ] || { echo \"scandof exited $rc\"; exit 1; }; \
echo \"$out\" | grep -q 'UI selftest: all [0-9][0-9]* controls reachable' || { echo 'no UI selftest verdict'; exit 1; }; \
out=$(${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' --size 1280x720 --frames 1000 --no-animate --no-vsync --primitives --ui-selftest 2>&1); rc=$?; \
echo \"$out\"; [ $rc -eq 0 ] || { echo \"scandof exited $rc (1280x720, HDR)\"; exit 1; }; \
echo \"$out\" | grep -q 'UI selftest: all [0-9][0-9]* controls reachable' || { echo 'no UI selftest verdict (1280x720, HDR)'; exit 1; }")
    set_tests_properties(demo_ui_reach PROPERTIES TIMEOUT 300 LABELS "demo;ui"
                         FAIL_REGULAR_EXPRESSION "NOT reachable")
  endif()
endif()
