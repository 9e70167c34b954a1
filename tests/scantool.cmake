# CTest cases that run the scantool CLI as a user would (included by tests/CMakeLists.txt).
# Every result is held against an independent oracle: tests/scantool_oracle.py computes the answer
# with numpy from the same input files (scantool's CPU path is the library's own reference, so
# comparing it with itself or with --cpu proves nothing), or a file whose answer is known (the
# exclusive sum of ones is iota). Cases that check the GPU path (the default path, --algo, --verify
# against the CPU reference) report SKIPPED where scantool finds no CUDA device and falls back.
if(NOT TARGET scantool)
  return()
endif()

set(_st_dir ${PROJECT_SOURCE_DIR}/tools/scantool/tests)
set(_st_work ${CMAKE_CURRENT_BINARY_DIR}/scantool_work)
set(_st_oracle ${PROJECT_SOURCE_DIR}/tests/scantool_oracle.py)

# scantool_case(name rc regex args [COMPARE a.npy|b.npy] [ORACLE] [GPU])
#   args: '|'-separated; ORACLE: check the result with scantool_oracle.py; GPU: the case checks the
#   GPU path and skips without a device. A case with ORACLE is not registered without the numpy
#   interpreter, which only -DSCANDOF_ALLOW_MISSING_TEST_TOOLS=ON allows (tests/tools.cmake).
function(scantool_case name rc regex args)
  cmake_parse_arguments(PARSE_ARGV 4 _c "ORACLE;GPU" "COMPARE" "")
  set(extra)
  if(_c_COMPARE)
    list(APPEND extra "-DCOMPARE=${_c_COMPARE}")
  endif()
  if(_c_ORACLE)
    if(NOT SCANDOF_SYS_PYTHON)
      return()
    endif()
    list(APPEND extra "-DORACLE=${SCANDOF_SYS_PYTHON}|${_st_oracle}")
  endif()
  if(_c_GPU)
    list(APPEND extra -DNEEDS_GPU=ON)
  endif()
  add_test(NAME scantool.${name}
           COMMAND ${CMAKE_COMMAND} -DTOOL=$<TARGET_FILE:scantool> "-DARGS=${args}"
                   -DEXPECT_RC=${rc} "-DEXPECT=${regex}" -DWORKDIR=${_st_work} ${extra}
                   -P ${_st_dir}/expect.cmake)
  set_tests_properties(scantool.${name} PROPERTIES FIXTURES_REQUIRED scantool_inputs TIMEOUT 120)
  if(_c_GPU)
    set_tests_properties(scantool.${name} PROPERTIES SKIP_REGULAR_EXPRESSION
                         "SKIPPED: no CUDA device")
  endif()
endfunction()

add_test(NAME scantool.setup_inputs
         COMMAND ${CMAKE_COMMAND} -DTOOL=$<TARGET_FILE:scantool> -DWORKDIR=${_st_work}
                 -P ${_st_dir}/setup_inputs.cmake)
set_tests_properties(scantool.setup_inputs PROPERTIES FIXTURES_SETUP scantool_inputs)

# --- help, version, argument errors -------------------------------------------------------------
scantool_case(help 0 "Usage: scantool .*gen .*scan .*Errors and exit codes" "--help")
scantool_case(version 0 "^scantool [0-9]+\\.[0-9]+" "--version")
scantool_case(scan_help 0 "Usage: scantool scan.*--algo.*single-pass.*--inclusive" "scan|--help")
scantool_case(gen_help 0 "Usage: scantool gen.*--dtype" "gen|--help")
scantool_case(no_arguments 2 "Usage: scantool" "")
scantool_case(unknown_command 2 "unknown command 'frobnicate'.*Usage" "frobnicate")
scantool_case(unknown_option 2 "--bogus.*Usage: scantool scan" "scan|--bogus|ones.npy|o.npy")
scantool_case(bad_algorithm 2 "nope.*Usage: scantool scan" "scan|--algo|nope|ones.npy|o.npy")
scantool_case(bad_op 2 "unknown --op 'mul'" "scan|--op|mul|ones.npy|o.npy")
scantool_case(missing_output_arg 2 "OUT.npy is required.*Usage: scantool scan" "scan|ones.npy")
scantool_case(gen_bad_dtype 2 "int16.*supported" "gen|--dtype|int16|x.npy")

# --- file errors: message, exit status 1, no crash -------------------------------------------
scantool_case(missing_file 1 "does_not_exist.npy: cannot open for reading" "scan|does_not_exist.npy|o.npy")
scantool_case(bad_file 1 "not_npy.npy: not a \\.npy file" "scan|not_npy.npy|o.npy")
scantool_case(wrong_dtype 1 "uint8.*cannot be scanned; supported: int32" "scan|u8.npy|o.npy")
scantool_case(not_1d 1 "needs a 1-D array.*\\(3, 5\\)" "scan|img.npy|o.npy")
scantool_case(output_not_writable 1 "cannot write no_such_dir/o.npy: cannot create a temporary file in no_such_dir" "scan|ones.npy|no_such_dir/o.npy")

# --- results --------------------------------------------------------------------------------
# The exclusive sum of ones is iota, bit for bit: on the CPU (--cpu, and the fallback where no
# device is visible), and on the GPU with the default algorithm and every named one.
scantool_case(roundtrip_cpu 0 "computed on the CPU with the reference scan"
              "scan|--cpu|ones.npy|ex_cpu.npy" COMPARE "ex_cpu.npy|iota.npy" ORACLE)
scantool_case(no_device_fallback 0
              "no CUDA device \\(.+\\); computed on the CPU with the reference scan"
              "scan|ones.npy|ex_nodev.npy" COMPARE "ex_nodev.npy|iota.npy" ORACLE)
set_tests_properties(scantool.no_device_fallback PROPERTIES ENVIRONMENT CUDA_VISIBLE_DEVICES=-1)
scantool_case(roundtrip_default 0 "" "scan|ones.npy|ex_default.npy"
              COMPARE "ex_default.npy|iota.npy" ORACLE GPU)
foreach(algo naive work-efficient conflict-free optimized warp-shuffle single-pass cub)
  scantool_case(roundtrip_${algo} 0 "" "scan|--algo|${algo}|ones.npy|ex_${algo}.npy"
                COMPARE "ex_${algo}.npy|iota.npy" ORACLE GPU)
endforeach()
# Random data, several operators: --cpu against numpy; the default path (GPU) against numpy and
# the --cpu file.
foreach(cfg "sum|--exclusive" "sum|--inclusive" "min|--inclusive" "max|--exclusive")
  string(REPLACE "|" "_" tag "${cfg}")
  string(REPLACE "--" "" tag "${tag}")
  foreach(f rand_i32 rand_i64)
    scantool_case(cpu_ref_${f}_${tag} 0 "computed on the CPU"
                  "scan|--cpu|--op|${cfg}|${f}.npy|ref_${f}_${tag}.npy" ORACLE)
    scantool_case(default_${f}_${tag} 0 "" "scan|--op|${cfg}|${f}.npy|got_${f}_${tag}.npy"
                  COMPARE "got_${f}_${tag}.npy|ref_${f}_${tag}.npy" ORACLE GPU)
    set_tests_properties(scantool.default_${f}_${tag} PROPERTIES
                         DEPENDS scantool.cpu_ref_${f}_${tag})
  endforeach()
endforeach()
scantool_case(cpu_f64_inclusive_sum 0 "" "scan|--cpu|--inclusive|f64.npy|ref_f64.npy" ORACLE)
scantool_case(cpu_f64_exclusive_min 0 "" "scan|--cpu|--op|min|f64.npy|ref_f64_min.npy" ORACLE)
# --verify: on a GPU the result is held against the CPU reference; with --cpu it says the
# reference computed it (nothing to compare).
scantool_case(verify 0 "--verify: all 100003 elements match the CPU reference"
              "scan|--verify|--inclusive|rand_i32.npy|v.npy" ORACLE GPU)
scantool_case(verify_float_sum 0 "--verify: all 4099 elements match"
              "scan|--verify|f64.npy|vf.npy" ORACLE GPU)
scantool_case(verify_cpu 0 "--verify: computed on the CPU, by the reference itself"
              "scan|--cpu|--verify|--inclusive|rand_i32.npy|vc.npy" ORACLE)
# --deterministic: numpy's answer within rounding; two GPU runs of a multi-tile float32 sum give
# the same file; cub refuses it for floats.
scantool_case(deterministic_f64 0 "" "scan|--deterministic|--inclusive|f64.npy|det_f64.npy" ORACLE)
scantool_case(deterministic_a 0 "" "scan|--deterministic|f32_big.npy|det_a.npy" ORACLE)
scantool_case(deterministic_b 0 "" "scan|--deterministic|f32_big.npy|det_b.npy"
              COMPARE "det_a.npy|det_b.npy" ORACLE GPU)
set_tests_properties(scantool.deterministic_b PROPERTIES DEPENDS scantool.deterministic_a)
scantool_case(deterministic_cub_float 2 "--deterministic: cub::DeviceScan gives no run-to-run"
              "scan|--deterministic|--algo|cub|f64.npy|o.npy")
scantool_case(time_flag 0 "[0-9.]+ ms" "scan|--time|--reps|3|rand_i32.npy|t.npy" ORACLE)
scantool_case(time_flag_cpu 0 "CPU reference .* [0-9.]+ ms"
              "scan|--cpu|--time|rand_i64.npy|tc.npy" ORACLE)
scantool_case(gen_same_seed_same_file 0 "" "gen|--n|100003|--seed|5|rand_again.npy"
              COMPARE "rand_again.npy|rand_i32.npy")

# --- numpy cross-check: files numpy writes (every dtype, .npy versions 1 to 3) through scan ------
if(SCANDOF_SYS_PYTHON)
  add_test(NAME scantool.numpy_roundtrip
           COMMAND ${SCANDOF_SYS_PYTHON} ${_st_dir}/numpy_roundtrip.py $<TARGET_FILE:scantool>
                   ${CMAKE_CURRENT_BINARY_DIR}/scantool_numpy)
  set_tests_properties(scantool.numpy_roundtrip PROPERTIES TIMEOUT 600)

  # --- robustness: about 1300 hostile inputs, each checked for its exit status, a message
  # naming the problem and no damaged file; numpy gives the expected answers. CPU only in CI; on a
  # GPU machine the default path runs on the GPU and must agree all the same.
  add_test(NAME scantool.robustness
           COMMAND ${SCANDOF_SYS_PYTHON} ${PROJECT_SOURCE_DIR}/tests/robustness/scantool_robustness.py
                   $<TARGET_FILE:scantool> ${CMAKE_CURRENT_BINARY_DIR}/scantool_robustness)
  set_tests_properties(scantool.robustness PROPERTIES TIMEOUT 900)
endif()

# --- compact and sort: --cpu against numpy, the default path (GPU) against numpy and --cpu -------
foreach(pair "gt3|>3" "lt_m2|<-2" "ge0|>=0" "eq1|==1" "ne0|!=0" "nonzero|nonzero" "odd|odd" "even|even")
  string(REPLACE "|" ";" pair "${pair}")
  list(GET pair 0 tag)
  list(GET pair 1 test)
  scantool_case(compact_cpu_${tag} 0 "" "compact|--cpu|--keep|${test}|rand_i32.npy|kc_${tag}.npy"
                ORACLE)
  scantool_case(compact_${tag} 0 "matches the CPU reference"
                "compact|--verify|--keep|${test}|rand_i32.npy|kg_${tag}.npy"
                COMPARE "kg_${tag}.npy|kc_${tag}.npy" ORACLE GPU)
  set_tests_properties(scantool.compact_${tag} PROPERTIES DEPENDS scantool.compact_cpu_${tag})
endforeach()
scantool_case(compact_cpu_float_lt 0 "" "compact|--cpu|--less-than|0.25|f64.npy|kcf.npy" ORACLE)
scantool_case(compact_cpu_flags 0 "" "compact|--cpu|--flags|flags.npy|rand_i32.npy|kcfl.npy" ORACLE)
scantool_case(compact_flags 0 "matches the CPU reference"
              "compact|--verify|--flags|flags.npy|rand_i32.npy|kgfl.npy" ORACLE GPU)
scantool_case(compact_partition_cpu 0 "" "compact|--cpu|--partition|--keep|odd|rand_i64.npy|kpc.npy"
              ORACLE)
scantool_case(compact_partition 0 "matches the CPU reference"
              "compact|--verify|--partition|--keep|odd|rand_i64.npy|kp.npy" ORACLE GPU)
scantool_case(compact_partition_flags_cpu 0 ""
              "compact|--cpu|--partition|--flags|flags.npy|rand_i32.npy|kpfc.npy" ORACLE)
scantool_case(compact_bad_test 2 "unknown test 'sometimes'" "compact|--keep|sometimes|rand_i32.npy|x.npy")
scantool_case(compact_odd_float 2 "odd/even need an integer dtype" "compact|--keep|odd|f64.npy|x.npy")
scantool_case(compact_bad_value 2 "cannot parse the test value 'abc' as a number" "compact|--keep|>abc|rand_i32.npy|x.npy")
scantool_case(sort_cpu 0 "" "sort|--cpu|rand_i32.npy|sc.npy" ORACLE)
scantool_case(sort_default 0 "" "sort|rand_i32.npy|sg.npy" COMPARE "sg.npy|sc.npy" ORACLE GPU)
set_tests_properties(scantool.sort_default PROPERTIES DEPENDS scantool.sort_cpu)
scantool_case(sort_cpu_bits 0 "" "sort|--cpu|--begin-bit|4|--end-bit|12|rand_i32.npy|sbits.npy"
              ORACLE)
scantool_case(sort_cpu_pairs 0 ""
              "sort|--cpu|--end-bit|16|--values|vals_u32.npy|--values-out|spv.npy|rand_i32.npy|spk.npy"
              ORACLE)
scantool_case(sort_pairs 0 "matches the CPU reference"
              "sort|--verify|--end-bit|16|--values|vals_u32.npy|--values-out|sgv.npy|rand_i32.npy|sgk.npy"
              ORACLE GPU)
scantool_case(sort_cpu_float 0 "" "sort|--cpu|f32.npy|sf.npy" ORACLE)
scantool_case(sort_cpu_uint32 0 "" "sort|--cpu|vals_u32.npy|su.npy" ORACLE)
scantool_case(sort_bad_dtype 1 "f64.npy" "sort|f64.npy|x.npy")
