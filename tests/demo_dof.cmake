# Depth of field, headless through EGL (CI: Mesa llvmpipe, where the SAT backend is the CPU fallback
# unless --backend gl; the GL DoF passes draw gather with every shape, the CPU gold method the
# rest), checked
# by tests/check_dof_report.py:
# - demo_reference_aperture0: the lens reference with aperture 0 equals the sharp frame.
# - demo_dof_methods: every method x shape (--all-methods), then the default (gather/octagon with
#   the radius offset) on the fragment pass,
#   on GL-built tables and on float32 tables, then layered/disc with the second depth layer
#   (--dof-layers 2, whose gold is the two-layer method: a one-layer gold differs in 1706 of
#   43200 values there): each image against the CPU gold method of the same frame
#   (--method-gold), drawn by the pass the report says, closer to the lens reference than the
#   unblurred frame, and each method unlike gather/box.
# - demo_dof_lens_plane: the lens reference of one plane at one depth (--view-preset wall) against
#   the pinhole frame filtered by the aperture disc, computed in the test.
# The lens reference draws the scene once per sample: --anisotropy 1 --tess 4 make that 60 ms on
# llvmpipe at 160x90 instead of 1.4 s (16x anisotropic filtering, teapot detail; neither matters
# to the DoF). 64 samples for the methods: with 4 the reference was four sharp copies that the
# unblurred frame scored nearly as well against as the methods did.
if(TARGET scandof)
  if(NOT SCANDOF_SYS_PYTHON)
    message(STATUS "demo DoF tests skipped: /usr/bin/python3 missing")
  else()
    set(_dof ${CMAKE_CURRENT_BINARY_DIR}/demo_dof)
    set(_dofc --headless --size 160x90 --frames 2 --view-preset near-blur --anisotropy 1 --tess 4 --ldr)
    string(JOIN " " _dofc_s ${_dofc})
    set(_chk "'${SCANDOF_SYS_PYTHON}' '${CMAKE_CURRENT_SOURCE_DIR}/check_dof_report.py'")
    add_test(NAME demo_reference_aperture0
      COMMAND sh -c "mkdir -p '${_dof}' && \
'$<TARGET_FILE:scandof>' ${_dofc_s} --aperture 0 --reference 4 --out-reference '${_dof}/ref0.png' --out-frame '${_dof}/sharp0.png' && \
${_chk} --aperture0 '${_dof}/ref0.png' '${_dof}/sharp0.png'")
    set_tests_properties(demo_reference_aperture0 PROPERTIES TIMEOUT 300 LABELS "demo;dof")

    # --all-methods with --dof-radius-offset 0: at the default 0.5 a few spread/layered pixels of
    # 14400 land exactly on a half level, where the checker and the demo round ties differently
    # (one value of one level); the default's runs below (gather/octagon, offset 0.5, on the GL
    # passes) hold the GL shapes and the offset to their gold.
    # engine/box is left out: its half-resolution means of 8-bit colours land exactly on half
    # levels (x.5 / 255) in flat regions, where the checker's round-half-to-even and the demo's
    # round-half-up differ by one level (8 values of 43200 at 160x90); test_dof_engine_gold and
    # the GPU tests hold it to its gold instead.
    set(_all gather/box gather/octagon gather/disc spread/box spread/octagon spread/disc
             layered/box layered/octagon layered/disc hybrid/disc)
    string(JOIN " " _all_s ${_all})
    set(_m ${_dof}/methods)
    add_test(NAME demo_dof_methods
      COMMAND sh -c "set -e; S='$<TARGET_FILE:scandof>'; rm -rf '${_m}'; mkdir -p '${_m}'; \
\"$S\" ${_dofc_s} --all-methods --dof-radius-offset 0 --reference 64 --report '${_m}/all.json' --method-images '${_m}/all' --method-gold; \
${_chk} --methods '${_m}/all.json' '${_m}/all' 'compute (GL)' ${_all_s}; \
\"$S\" ${_dofc_s} --dof-pass fragment --reference 64 --report '${_m}/frag.json' --method-images '${_m}/frag' --method-gold; \
${_chk} --methods '${_m}/frag.json' '${_m}/frag' fragment gather/octagon; \
\"$S\" ${_dofc_s} --backend gl --reference 64 --report '${_m}/gl.json' --method-images '${_m}/gl' --method-gold; \
${_chk} --methods '${_m}/gl.json' '${_m}/gl' 'compute (GL)' gather/octagon; \
\"$S\" ${_dofc_s} --backend gl --format f32 --dof-pass fragment --reference 64 --report '${_m}/f32.json' --method-images '${_m}/f32' --method-gold; \
${_chk} --methods '${_m}/f32.json' '${_m}/f32' fragment gather/octagon; \
\"$S\" ${_dofc_s} --dof layered --shape disc --dof-layers 2 --dof-radius-offset 0 --reference 64 --report '${_m}/two.json' --method-images '${_m}/two' --method-gold; \
${_chk} --methods '${_m}/two.json' '${_m}/two' cpu layered/disc")
    set_tests_properties(demo_dof_methods PROPERTIES TIMEOUT 600 LABELS "demo;dof")

    set(_p ${_dof}/plane)
    add_test(NAME demo_dof_lens_plane
      COMMAND sh -c "set -e; rm -rf '${_p}'; mkdir -p '${_p}'; \
'$<TARGET_FILE:scandof>' --ldr --headless --size 160x90 --frames 2 --view-preset wall --anisotropy 1 --tess 4 --aperture 10 --reference 256 --report '${_p}/wall.json' --method-images '${_p}' --method-gold; \
${_chk} --plane '${_p}/wall.json' '${_p}'")
    set_tests_properties(demo_dof_lens_plane PROPERTIES TIMEOUT 300 LABELS "demo;dof")
  endif()
endif()
