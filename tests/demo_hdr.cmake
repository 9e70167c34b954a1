# The HDR pipeline (the demo's default), headless through EGL (CI: Mesa llvmpipe):
# - demo_hdr_reference_aperture0: the HDR lens reference with aperture 0 equals the sharp HDR
#   frame (both tone mapped with the frame's exposure).
# - demo_hdr_highlights_{cpu,gl}: the highlights view (bulbs far behind the focus and one in
#   front, aperture 20) with gather/disc against a 256-sample HDR reference at 480x270: the light
#   of the highlight pixels (reference luminance > 1) is kept within 5 % (measured -3.4 % here),
#   the tables equal sat_gold_hdr of the radiance frame (--verify) on the CPU and GL compute
#   backends, nothing is clamped (tests/check_hdr_report.py).
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
  foreach(_b cpu gl)
    add_test(NAME demo_hdr_highlights_${_b}
      COMMAND sh -c "mkdir -p '${_hdr}' && \
'$<TARGET_FILE:scandof>' ${_hdrc_s} --size 480x270 --backend ${_b} --view-preset highlights --dof gather --shape disc --reference 256 --verify --report '${_hdr}/highlights_${_b}.json' && \
'${SCANDOF_SYS_PYTHON}' '${CMAKE_CURRENT_SOURCE_DIR}/check_hdr_report.py' '${_hdr}/highlights_${_b}.json' 0.05")
    set_tests_properties(demo_hdr_highlights_${_b} PROPERTIES TIMEOUT 900 LABELS "demo;dof;hdr")
  endforeach()
endif()
