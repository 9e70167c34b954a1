# Your own scene: the glTF loader (app/scene/gltf_loader.*) on CPU, fuzzed, and real files rendered
# by the demo (headless EGL and the window under Xvfb, llvmpipe in CI) with depth of field.
# The corpus is Debian's assimp-testmodels (scripts/setup.sh installs it): valid glTF 2.0 files
# and malformed ones (infinite positions, indices out of range, a missing .bin, wrong JSON types,
# a node cycle, a required Draco extension).
find_path(SCANDOF_GLTF_CORPUS NAMES BoxTextured-glTF-Binary/BoxTextured.glb
          PATHS /usr/share/assimp/models/glTF2 NO_DEFAULT_PATH)
if(TARGET scandof_app_scene)
  # Loader checks and the fuzz test: CPU only, so the sanitizer stage runs them too.
  add_executable(scandof_gltf_tests ${PROJECT_SOURCE_DIR}/app/tests/gltf_loader_checks.cpp
                                    ${PROJECT_SOURCE_DIR}/app/tests/gltf_fuzz_checks.cpp
                                    ${PROJECT_SOURCE_DIR}/app/tests/camera_path_checks.cpp)
  target_link_libraries(scandof_gltf_tests PRIVATE scandof_app_scene GTest::gtest GTest::gtest_main)
  if(SCANDOF_GLTF_CORPUS)
    target_compile_definitions(scandof_gltf_tests PRIVATE SCANDOF_GLTF_CORPUS="${SCANDOF_GLTF_CORPUS}")
  else()
    message(STATUS "glTF corpus tests skipped: assimp-testmodels not installed (scripts/setup.sh)")
  endif()
  # One CTest test per case (gtest_discover_tests keeps only the first of several labels), and
  # the whole binary as one test labelled `sanitize` in a build whose flags carry -fsanitize:
  # scripts/test.sh's sanitizer stage builds the targets `scandof_sanitize_targets` depends on
  # and runs `ctest -L sanitize` (findings abort: halt_on_error).
  gtest_discover_tests(scandof_gltf_tests DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
                       PROPERTIES LABELS gltf TIMEOUT 300)
  if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=")
    if(NOT TARGET scandof_sanitize_targets)
      add_custom_target(scandof_sanitize_targets)
    endif()
    add_dependencies(scandof_sanitize_targets scandof_gltf_tests)
    add_test(NAME sanitize_gltf_loader COMMAND scandof_gltf_tests)
    set_tests_properties(sanitize_gltf_loader PROPERTIES TIMEOUT 900 LABELS "sanitize;demo;gltf"
      ENVIRONMENT "ASAN_OPTIONS=halt_on_error=1:detect_leaks=1;UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
  endif()
  # The 1-million-triangle scene of the load and frame timings (results/demo/gltf).
  add_executable(scandof_make_glb ${PROJECT_SOURCE_DIR}/app/tests/make_big_glb.cpp)
endif()

# Scenes switched on a running App (app/tests/scene_switch_gl.cpp), as the window's Scene field
# and drag and drop do: linked with the demo's rooms (scandof_add_demo_gtest,
# tests/CMakeLists.txt), run on EGL's surfaceless display.
if(TARGET scandof AND TARGET GTest::gtest AND SCANDOF_GLTF_CORPUS)
  scandof_add_demo_gtest(demo_scene_switch ${PROJECT_SOURCE_DIR}/app/tests/scene_switch_gl.cpp)
  set_source_files_properties(${PROJECT_SOURCE_DIR}/app/tests/scene_switch_gl.cpp PROPERTIES
                              COMPILE_DEFINITIONS "SCANDOF_GLTF_CORPUS=\"${SCANDOF_GLTF_CORPUS}\"")
  add_test(NAME demo_gltf_scene_switch COMMAND demo_scene_switch)
  set_tests_properties(demo_gltf_scene_switch PROPERTIES TIMEOUT 300 LABELS "demo;gltf")
endif()

if(TARGET scandof AND SCANDOF_GLTF_CORPUS AND SCANDOF_XVFB_RUN AND SCANDOF_SYS_PYTHON)
  set(_dir ${CMAKE_CURRENT_BINARY_DIR}/demo_gltf)
  set(_m ${SCANDOF_GLTF_CORPUS})
  # Real files, headless: the sharp frame and the DoF frame of the same still (the HDR pipeline,
  # auto exposure; --ldr for the first), focus on the scene's centre, then the check that the model
  # shows and the DoF blurs it. The engine is seen through its own camera (--scene-camera 0).
  set(_h --headless --size 480x270 --frames 2 --no-animate --aperture 14)
  string(JOIN " " _h_s ${_h})
  set(_cases "BoxTextured-glTF-Binary/BoxTextured.glb|box_glb|--ldr"
             "BoxTextured-glTF/BoxTextured.gltf|box_gltf|"
             "2CylinderEngine-glTF-Binary/2CylinderEngine.glb|engine|--scene-camera 0"
             "glTF-Asset-Generator/Mesh_PrimitiveMode/Mesh_PrimitiveMode_13.gltf|strip|")
  set(_cmd "S='$<TARGET_FILE:scandof>'; P='${SCANDOF_SYS_PYTHON}'; mkdir -p '${_dir}' || exit 1; ")
  foreach(c IN LISTS _cases)
    string(REPLACE "|" ";" c "${c}")
    list(GET c 0 file)
    list(GET c 1 name)
    list(LENGTH c n)
    set(extra "")
    if(n GREATER 2)
      list(GET c 2 extra)
    endif()
    string(APPEND _cmd "\"$S\" ${_h_s} ${extra} --scene '${_m}/${file}' --out '${_dir}/${name}_dof.png' \
--out-frame '${_dir}/${name}_sharp.png' || { echo '${file}: exit '$?; exit 1; }; \
\"$P\" '${CMAKE_CURRENT_SOURCE_DIR}/check_gltf_screens.py' '${_dir}/${name}_dof.png' \
'${_dir}/${name}_sharp.png' || { echo '${file}: screenshot check failed'; exit 1; }; ")
  endforeach()
  add_test(NAME demo_gltf_headless COMMAND sh -c "${_cmd}")
  set_tests_properties(demo_gltf_headless PROPERTIES TIMEOUT 600 LABELS "demo;gltf")

  # The lens reference goes through the same scene: --quality renders it for a loaded scene and
  # scores the method against it (finite PSNR in the report).
  add_test(NAME demo_gltf_reference
    COMMAND sh -c "mkdir -p '${_dir}' && '$<TARGET_FILE:scandof>' ${_h_s} --reference 16 --quality \
--scene '${_m}/BoxTextured-glTF-Binary/BoxTextured.glb' --out-reference '${_dir}/box_reference.png' \
--report '${_dir}/box_reference.json' && grep -q '\"psnr_db\"' '${_dir}/box_reference.json' && \
'${SCANDOF_SYS_PYTHON}' '${CMAKE_CURRENT_SOURCE_DIR}/check_gltf_screens.py' \
'${_dir}/box_reference.png' '${_dir}/box_glb_sharp.png'")
  set_tests_properties(demo_gltf_reference PROPERTIES TIMEOUT 300 LABELS "demo;gltf"
                       DEPENDS demo_gltf_headless)

  # The window under Xvfb with a loaded scene: the DoF screenshot against the sharp view.
  set(_w --size 640x360 --frames 12 --exit --no-animate --no-vsync --aperture 14)
  string(JOIN " " _w_s ${_w})
  add_test(NAME demo_gltf_window
    COMMAND sh -c "mkdir -p '${_dir}' && \
${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' ${_w_s} --scene '${_m}/2CylinderEngine-glTF-Binary/2CylinderEngine.glb' --screenshot '${_dir}/win_dof.png' && \
${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' '$<TARGET_FILE:scandof>' ${_w_s} --scene '${_m}/2CylinderEngine-glTF-Binary/2CylinderEngine.glb' --view sharp --screenshot '${_dir}/win_sharp.png' && \
'${SCANDOF_SYS_PYTHON}' '${CMAKE_CURRENT_SOURCE_DIR}/check_gltf_screens.py' '${_dir}/win_dof.png' '${_dir}/win_sharp.png'")
  set_tests_properties(demo_gltf_window PROPERTIES TIMEOUT 300 LABELS "demo;gltf;screenshot")

  # A camera path played headless with --record: every frame a PNG named by its path step; a
  # second run of the same path ending at step 7 (5 warm-up frames + 3) writes --out bit for bit
  # equal to the recording's frame_00007.png (the path steps time by 1 / fps, so the exposure's
  # adaptation and the animation are the same in both runs). The path goes round the engine with
  # a focus pull and an aperture change.
  set(_path ${CMAKE_CURRENT_SOURCE_DIR}/data/camera_path_engine.json)
  set(_p --headless --size 320x180 --scene '${_m}/2CylinderEngine-glTF-Binary/2CylinderEngine.glb' --camera-path '${_path}')
  string(JOIN " " _p_s ${_p})
  add_test(NAME demo_gltf_record
    COMMAND sh -c "S='$<TARGET_FILE:scandof>'; d='${_dir}/record'; rm -rf \"$d\" && \
\"$S\" ${_p_s} --frames 6 --record \"$d\" >/dev/null 2>&1 || { echo 'record run failed'; exit 1; }; \
n=$(ls \"$d\" | wc -l); [ $n -eq 11 ] || { echo \"$n frames recorded, want 11\"; ls \"$d\"; exit 1; }; \
\"$S\" ${_p_s} --frames 3 --out \"$d/out_step7.png\" >/dev/null 2>&1 || { echo 'out run failed'; exit 1; }; \
cmp \"$d/frame_00007.png\" \"$d/out_step7.png\" || { echo 'step 7 differs from the recording'; exit 1; }; \
cmp -s \"$d/frame_00003.png\" \"$d/frame_00009.png\" && { echo 'the path did not move'; exit 1; }; \
msg=$(\"$S\" --headless --frames 1 --camera-path /nonexistent.json 2>&1); [ $? -eq 1 ] && \
echo \"$msg\" | grep -q '/nonexistent.json: cannot open' || { echo \"bad path file: $msg\"; exit 1; }")
  set_tests_properties(demo_gltf_record PROPERTIES TIMEOUT 300 LABELS "demo;gltf")

  # The same path into an MP4 (FFmpeg's libraries, where the build found them): one H.264 sample
  # per frame (the stsz box counts 11), and an unwritable file exits 1 naming it.
  if(TARGET PkgConfig::SCANDOF_FFMPEG)
    add_test(NAME demo_gltf_record_mp4
      COMMAND sh -c "S='$<TARGET_FILE:scandof>'; f='${_dir}/record.mp4'; rm -f \"$f\"; \
\"$S\" ${_p_s} --frames 6 --record \"$f\" >/dev/null 2>&1 || { echo 'mp4 run failed'; exit 1; }; \
'${SCANDOF_SYS_PYTHON}' -c \"import struct,sys; b=open(sys.argv[1],'rb').read(); i=b.find(b'stsz'); \
n=struct.unpack('>I',b[i+12:i+16])[0] if i>0 else -1; print('samples',n); \
sys.exit(0 if b[4:8]==b'ftyp' and (b.find(b'avc1')>0 or b.find(b'mp4v')>0) and n==11 else 1)\" \"$f\" || exit 1; \
msg=$(\"$S\" --headless --size 64x48 --frames 1 --record /nonexistent/x.mp4 2>&1); [ $? -eq 1 ] && \
echo \"$msg\" | grep -q '/nonexistent/x.mp4: cannot write' || { echo \"unwritable: $msg\"; exit 1; }")
    set_tests_properties(demo_gltf_record_mp4 PROPERTIES TIMEOUT 300 LABELS "demo;gltf")
  endif()

  # Malformed files: no crash, exit 1, a message naming the file (headless and window).
  set(_bad "BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb|not finite"
           "IndexOutOfRange/IndexOutOfRange.gltf|out of range"
           "MissingBin/BoxTextured.gltf|"
           "wrongTypes/badArray.gltf|" "wrongTypes/badNumber.gltf|" "wrongTypes/badObject.gltf|"
           "wrongTypes/badString.gltf|" "wrongTypes/badUint.gltf|" "wrongTypes/badExtension.gltf|"
           "SchemaFailures/sceneWrongType.gltf|"
           "RecursiveNodes/RecursiveNodes.gltf|"
           "draco/2CylinderEngine.gltf|requires extension KHR_draco_mesh_compression")
  set(_cmd "S='$<TARGET_FILE:scandof>'; ")
  foreach(c IN LISTS _bad)
    string(REPLACE "|" ";" c "${c}")
    list(GET c 0 file)
    list(LENGTH c n)
    set(what "")
    if(n GREATER 1)
      list(GET c 1 what)
    endif()
    string(APPEND _cmd "msg=$(\"$S\" --headless --size 64x48 --frames 1 --scene '${_m}/${file}' 2>&1); rc=$?; \
[ $rc -eq 1 ] || { echo '${file}: exit '$rc' (want 1): '\"$msg\"; exit 1; }; \
echo \"$msg\" | grep -F '${_m}/${file}: ' | grep -qF '${what}' || { echo '${file}: no message naming it: '\"$msg\"; exit 1; }; ")
  endforeach()
  string(APPEND _cmd "msg=$(\"$S\" --headless --size 64x48 --frames 1 --scene /nonexistent.glb 2>&1); \
[ $? -eq 1 ] && echo \"$msg\" | grep -q '/nonexistent.glb: cannot open' || { echo \"missing file: $msg\"; exit 1; }; \
\"$S\" --headless --frames 1 --scene-camera 0 >/dev/null 2>&1; [ $? -eq 2 ] || { echo '--scene-camera without --scene: want 2'; exit 1; }; \
msg=$(${SCANDOF_XVFB_RUN} -a -s '-screen 0 1280x720x24' \"$S\" --size 320x180 --frames 2 --exit --scene '${_m}/IndexOutOfRange/IndexOutOfRange.gltf' 2>&1); rc=$?; \
[ $rc -eq 1 ] && echo \"$msg\" | grep -q 'IndexOutOfRange.gltf: ' || { echo \"window: exit $rc: $msg\"; exit 1; }")
  add_test(NAME demo_gltf_malformed COMMAND sh -c "${_cmd}")
  set_tests_properties(demo_gltf_malformed PROPERTIES TIMEOUT 300 LABELS "demo;gltf")
endif()
