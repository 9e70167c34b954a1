# The HDR pipeline (the demo's default), headless through EGL (CI: Mesa llvmpipe):
# - demo_hdr_reference_aperture0: the HDR lens reference with aperture 0 equals the sharp HDR
#   frame (both tone mapped with the frame's exposure).
# - demo_hdr_highlights_{cpu,gl}: the highlights view (bulbs far behind the focus and one in
#   front, aperture 20) with gather/disc against a 256-sample HDR reference at 480x270: the light
#   of the highlight pixels (reference luminance > 1) is kept within 5 % (measured -3.4 % here),
#   the tables equal sat_gold_hdr of the radiance frame (--verify) on the CPU and GL compute
#   backends, nothing is clamped (tests/check_hdr_report.py). The gather alone (--dof-bokeh 0):
#   with the bokeh's split the tables clamp at its threshold, and their count is its sources.
# - demo_hdr_bokeh: gather/octagon with the bokeh from highlights (--dof-bokeh 1) on the GL
#   compute pass over CPU-built and GL-built tables and on the fragment pass, each output's
#   radiance against the CPU gold method of the same frame (tests/check_dof_report.py
#   --radiance): the GL passes' spread of the excess (shaders/bokeh_*.comp) and the tables of the
#   clamped frame.
# --anisotropy 1 --tess 4 as in demo_dof.cmake: the reference draws the scene once per sample.
if(TARGET scandof AND SCANDOF_SYS_PYTHON)
  set(_hdr ${CMAKE_CURRENT_BINARY_DIR}/demo_hdr)
  set(_hdrc --headless --frames 2 --anisotropy 1 --tess 4)
  string(JOIN " " _hdrc_s ${_hdrc})
  add_test(NAME demo_hdr_reference_aperture0
    COMMAND sh -c "mkdir -p '${_hdr}' && \
'$<TARGET_FILE:scandof>' ${_hdrc_s} --size 160x90 --view-preset near-blur --aperture 0 --reference 4 --out-reference '${_hdr}/ref0.png' --out-frame '${_hdr}/sharp0.png' && \
'${SCANDOF_SYS_PYTHON}' '${CMAKE_CURRENT_SOURCE_DIR}/check_dof_report.py' --aperture0 '${_hdr}/ref0.png' '${_hdr}/sharp0.png'")
  set_tests_properties(demo_hdr_reference_aperture0 PROPERTIES TIMEOUT 300 LABELS "demo;dof;hdr")
  set(_bk ${_hdr}/bokeh)
  set(_chk "'${SCANDOF_SYS_PYTHON}' '${CMAKE_CURRENT_SOURCE_DIR}/check_dof_report.py'")
  set(_bkc ${_hdrc_s} --size 320x180 --view-preset highlights --dof-bokeh 1 --reference 64)
  string(JOIN " " _bkc_s ${_bkc})
  add_test(NAME demo_hdr_bokeh
    COMMAND sh -c "set -e; S='$<TARGET_FILE:scandof>'; rm -rf '${_bk}'; mkdir -p '${_bk}'; \
\"$S\" ${_bkc_s} --report '${_bk}/cpu.json' --method-images '${_bk}/cpu' --method-gold; \
${_chk} --radiance '${_bk}/cpu.json' '${_bk}/cpu' 'compute (GL)' gather/octagon; \
\"$S\" ${_bkc_s} --backend gl --report '${_bk}/gl.json' --method-images '${_bk}/gl' --method-gold; \
${_chk} --radiance '${_bk}/gl.json' '${_bk}/gl' 'compute (GL)' gather/octagon; \
\"$S\" ${_bkc_s} --dof-pass fragment --report '${_bk}/frag.json' --method-images '${_bk}/frag' --method-gold; \
${_chk} --radiance '${_bk}/frag.json' '${_bk}/frag' fragment gather/octagon")
  set_tests_properties(demo_hdr_bokeh PROPERTIES TIMEOUT 600 LABELS "demo;dof;hdr")
  foreach(_b cpu gl)
    add_test(NAME demo_hdr_highlights_${_b}
      COMMAND sh -c "mkdir -p '${_hdr}' && \
'$<TARGET_FILE:scandof>' ${_hdrc_s} --size 480x270 --backend ${_b} --view-preset highlights --dof gather --shape disc --dof-bokeh 0 --reference 256 --verify --report '${_hdr}/highlights_${_b}.json' && \
'${SCANDOF_SYS_PYTHON}' '${CMAKE_CURRENT_SOURCE_DIR}/check_hdr_report.py' '${_hdr}/highlights_${_b}.json' 0.05")
    set_tests_properties(demo_hdr_highlights_${_b} PROPERTIES TIMEOUT 900 LABELS "demo;dof;hdr")
  endforeach()
endif()
