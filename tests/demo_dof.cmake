# Depth of field against the lens reference (results/dof/README.md), headless through EGL: the
# reference with aperture 0 equals the sharp frame (PSNR > 50 dB); spread, layered and the disc shape run
# (CPU gold methods here, DofGpu with a device) and the report holds their quality objects.
if(TARGET scandof)
  find_program(SCANDOF_SYS_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
  if(NOT SCANDOF_SYS_PYTHON)
    message(STATUS "demo DoF tests skipped: /usr/bin/python3 missing")
  else()
    set(_dof ${CMAKE_CURRENT_BINARY_DIR}/demo_dof)
    set(_dofc --headless --size 160x90 --frames 2 --view-preset near-blur)
    string(JOIN " " _dofc_s ${_dofc})
    add_test(NAME demo_reference_aperture0
      COMMAND sh -c "mkdir -p '${_dof}' && \
'$<TARGET_FILE:scandof>' ${_dofc_s} --aperture 0 --reference 4 --out-reference '${_dof}/ref0.png' --out-frame '${_dof}/sharp0.png' && \
${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_dof_report.py' --aperture0 '${_dof}/ref0.png' '${_dof}/sharp0.png'")
    set_tests_properties(demo_reference_aperture0 PROPERTIES TIMEOUT 300 LABELS "demo;dof")
    add_test(NAME demo_dof_methods
      COMMAND sh -c "mkdir -p '${_dof}' && \
'$<TARGET_FILE:scandof>' ${_dofc_s} --dof spread --reference 4 --report '${_dof}/spread.json' && \
'$<TARGET_FILE:scandof>' ${_dofc_s} --dof layered --reference 4 --report '${_dof}/layered.json' && \
'$<TARGET_FILE:scandof>' ${_dofc_s} --shape disc --reference 4 --report '${_dof}/disc.json' && \
${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_dof_report.py' --quality '${_dof}/spread.json' spread/box && \
${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_dof_report.py' --quality '${_dof}/layered.json' layered/box && \
${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_dof_report.py' --quality '${_dof}/disc.json' gather/disc")
    set_tests_properties(demo_dof_methods PROPERTIES TIMEOUT 300 LABELS "demo;dof")
  endif()
endif()
