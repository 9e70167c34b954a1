# The headless demo end to end on what the unit tests of app/tests/ check in isolation (included by
# tests/CMakeLists.txt): EGL surfaceless on llvmpipe here, the CPU and GL compute SAT backends.
#   demo_logic_report_*: every --report field present with its type and a plausible value, and the
#     values the command line asked for (sizes, backend, lens, format, MSAA, ...) in it
#     (tests/check_demo_report.py).
#   demo_logic_runtime_*: settings changed at runtime by the automation layer's plan on one App:
#     --all-variants walks every scan variant and SAT method, --all-methods every DoF method and
#     shape; each run must be named for what was set, and its DoF pass must be the one the path
#     choice gives that method (GL compute for gather, the CPU gold method for the others).
#   demo_logic_physical: --physical's aperture against the thin lens computed in Python.
#   demo_logic_autofocus: where each autofocus mode pulls the focus in a headless run.
#   demo_logic_dump_sat_*: --dump-sat against np.cumsum of --out-frame of the same run, exactly
#     (tests/check_dump_sat.py), uint32 and float32 tables, both backends, odd sizes.
#   demo_logic_runtime_settings: the settings that rebuild (SAT backend, format, MSAA,
#     tessellation) and a resize changed on one running App, which no flag can do: a GoogleTest
#     with a GL context, built from the demo's sources.
if(TARGET scandof AND TARGET GTest::gtest)
  # Settings changed on a running App (app/tests/runtime_settings_gl.cpp), linked with the demo's
  # rooms (scandof_add_demo_gtest, tests/CMakeLists.txt).
  scandof_add_demo_gtest(demo_runtime_settings
                         ${PROJECT_SOURCE_DIR}/app/tests/runtime_settings_gl.cpp)
  target_include_directories(demo_runtime_settings PRIVATE ${PROJECT_SOURCE_DIR}/tests)  # gpu_skip.hpp
  add_test(NAME demo_logic_runtime_settings COMMAND demo_runtime_settings)
  set_tests_properties(demo_logic_runtime_settings PROPERTIES TIMEOUT 300 LABELS "demo;logic")
endif()

if(TARGET scandof)
  if(NOT SCANDOF_SYS_PYTHON)
    message(STATUS "demo_logic tests skipped: /usr/bin/python3 missing")
  else()
    set(_dl ${CMAKE_CURRENT_BINARY_DIR}/demo_logic)
    set(_S "'$<TARGET_FILE:scandof>' --headless --no-animate --ldr")
    set(_report "${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_demo_report.py'")
    set(_dump "${SCANDOF_SYS_PYTHON} '${CMAKE_CURRENT_SOURCE_DIR}/check_dump_sat.py'")

    # Every value flag the report echoes, set away from its default, on each backend.
    foreach(backend cpu gl)
      add_test(NAME demo_logic_report_${backend}
        COMMAND sh -c "mkdir -p '${_dl}' && \
${_S} --backend ${backend} --size 97x61 --frames 3 --focus 7.5 --aperture 5 --max-radius 9 \
  --format f32 --msaa 2 --anisotropy 2 --scene-shading forward --dof-pass fragment --layers 4 \
  --disc-k 3 --reference 8 --reference-unclamped --method fused --verify \
  --report '${_dl}/report_${backend}.json' && \
${_report} '${_dl}/report_${backend}.json' backend=${backend} width=97 height=61 frames=3 \
  focus=7.5 aperture=5 max_radius=9 format=f32 msaa=2 anisotropy=2 scene_shading=forward \
  scene_shading_asked=forward layers=4 disc_boxes=3 reference_samples=8 reference_clamped=false \
  method=fused physical=false dof=gather/octagon verify.ok=true dof_passes=fragment")
      set_tests_properties(demo_logic_report_${backend} PROPERTIES TIMEOUT 300
                           LABELS "demo;logic")
    endforeach()

    # The scan variant and SAT method changed between measured runs of one App (GL backend: every
    # variant and method runs; the CPU backend builds one way, so one run), then the chosen one.
    add_test(NAME demo_logic_runtime_variants
      COMMAND sh -c "mkdir -p '${_dl}' && \
${_S} --backend gl --size 64x48 --frames 2 --all-variants --variant naive --verify \
  --report '${_dl}/variants_gl.json' && \
${_report} '${_dl}/variants_gl.json' backend=gl verify.ok=true \
  runs=naive,work-efficient,conflict-free,optimized,warp-shuffle,single-pass,cub,fused,fused-two-pass,fused-one-pass,fused-resident,naive && \
${_S} --backend cpu --size 64x48 --frames 2 --all-variants --report '${_dl}/variants_cpu.json' && \
${_report} '${_dl}/variants_cpu.json' backend=cpu runs=naive,work-efficient")
    set_tests_properties(demo_logic_runtime_variants PROPERTIES TIMEOUT 300 LABELS "demo;logic")

    # The DoF method and shape changed between runs: each run names its method and ran on the path
    # choose_dof_path gives it without CUDA; the chosen one (layered/disc) last.
    set(_g "compute (GL)")
    add_test(NAME demo_logic_runtime_methods
      COMMAND sh -c "mkdir -p '${_dl}' && \
${_S} --backend gl --size 80x45 --frames 2 --all-methods --reference 2 --dof layered \
  --shape disc --report '${_dl}/methods.json' && \
${_report} '${_dl}/methods.json' backend=gl dof=layered/disc \
  dofs=gather/box,gather/octagon,gather/disc,spread/box,spread/octagon,spread/disc,layered/box,layered/octagon,layered/disc,engine/box,hybrid/box,hybrid/octagon,hybrid/disc,layered/disc \
  'dof_passes=${_g},${_g},${_g},cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu'")
    set_tests_properties(demo_logic_runtime_methods PROPERTIES TIMEOUT 300 LABELS "demo;logic")

    # The physical camera: the aperture the frame used is the thin lens's for this lens, focus and
    # width, and the lens block echoes the flags.
    add_test(NAME demo_logic_physical
      COMMAND sh -c "mkdir -p '${_dl}' && \
${_S} --backend cpu --size 120x80 --frames 2 --physical --focal-length 35 --f-number 2.5 \
  --sensor-width 24 --focus 3 --report '${_dl}/physical.json' && \
${_report} '${_dl}/physical.json' backend=cpu physical=true thin_lens=1 focus=3 \
  lens.focal_length_mm=35 lens.f_number=2.5 lens.sensor_width_mm=24 && \
${_S} --backend cpu --size 1920x12 --frames 2 --physical --focus 3 \
  --report '${_dl}/physical_default.json' && \
${_report} '${_dl}/physical_default.json' thin_lens=1 lens.focal_length_mm=50 lens.f_number=2")
    set_tests_properties(demo_logic_physical PROPERTIES TIMEOUT 300 LABELS "demo;logic")

    # Autofocus on the frame (App::pull_focus: the target per mode, then the pull): a fast pull
    # towards the centre ends at the same focus from either side; the near teapot is nearer than
    # the far one; at the default speed the focus after the 5 warm-up and 2 measured frames is
    # where the pull in dioptres puts it; off, and the cursor mode headless (no cursor), keep it.
    set(_af "${_S} --backend cpu --size 96x54 --frames 2")
    add_test(NAME demo_logic_autofocus
      COMMAND sh -c "mkdir -p '${_dl}' && cd '${_dl}' && ${_af} --autofocus centre --focus 3 --focus-speed 1000 --report af_c3.json && ${_af} --autofocus centre --focus 100 --focus-speed 1000 --report af_c100.json && ${_report} af_c3.json focus_of=af_c100.json && ${_af} --autofocus teapot --focus-teapot 0 --focus-speed 1000 --report af_t0.json && ${_af} --autofocus teapot --focus-teapot 4 --focus-speed 1000 --report af_t4.json && ${_report} af_t0.json focus_lt=af_t4.json && ${_af} --autofocus teapot --focus-teapot 4 --focus 3 --report af_t4_pull.json && ${_report} af_t4_pull.json pull=3,4,7,af_t4.json && ${_af} --autofocus off --focus 3 --report af_off.json && ${_report} af_off.json focus=3 && ${_af} --autofocus cursor --focus 3 --report af_cursor.json && ${_report} af_cursor.json focus=3")
    set_tests_properties(demo_logic_autofocus PROPERTIES TIMEOUT 300 LABELS "demo;logic")

    # The dumped tables against the frame they were built from.
    foreach(cfg "cpu;u32;97x61" "cpu;f32;33x17" "gl;u32;97x61" "gl;f32;160x90" "gl;u32;193x65")
      list(GET cfg 0 backend)
      list(GET cfg 1 format)
      list(GET cfg 2 size)
      set(_n demo_logic_dump_sat_${backend}_${format}_${size})
      add_test(NAME ${_n}
        COMMAND sh -c "mkdir -p '${_dl}' && \
${_S} --backend ${backend} --format ${format} --size ${size} --frames 1 \
  --dump-sat '${_dl}/${_n}.npy' --out-frame '${_dl}/${_n}.png' && \
${_dump} --size ${size} '${_dl}/${_n}.npy' '${_dl}/${_n}.png'")
      set_tests_properties(${_n} PROPERTIES TIMEOUT 300 LABELS "demo;logic")
    endforeach()
  endif()
endif()
