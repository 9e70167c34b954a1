# CTest cases that run the scantool CLI as a user would (included by tests/CMakeLists.txt).
# They pass with and without a GPU: without one the CLI takes its CPU path, which the
# fallback case checks it reports. Integer results are compared exactly against files whose
# answer is known (the exclusive sum of ones is iota) or against the --cpu reference.
if(NOT TARGET scantool)
  return()
endif()

set(_st_dir ${PROJECT_SOURCE_DIR}/tools/scantool/tests)
set(_st_work ${CMAKE_CURRENT_BINARY_DIR}/scantool_work)

# name, expected status, regex, '|'-separated arguments, [files to compare]
function(scantool_case name rc regex args)
  set(extra)
  if(ARGC GREATER 4)
    set(extra "-DCOMPARE=${ARGV4}")
  endif()
  add_test(NAME scantool.${name}
           COMMAND ${CMAKE_COMMAND} -DTOOL=$<TARGET_FILE:scantool> "-DARGS=${args}"
                   -DEXPECT_RC=${rc} "-DEXPECT=${regex}" -DWORKDIR=${_st_work} ${extra}
                   -P ${_st_dir}/expect.cmake)
  set_tests_properties(scantool.${name} PROPERTIES FIXTURES_REQUIRED scantool_inputs TIMEOUT 120)
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
# The default algorithm and every named one: exclusive sum of ones == iota, bit for bit.
scantool_case(roundtrip_default 0 "" "scan|ones.npy|ex_default.npy" "ex_default.npy|iota.npy")
foreach(algo naive work-efficient conflict-free optimized warp-shuffle single-pass cub)
  scantool_case(roundtrip_${algo} 0 "" "scan|--algo|${algo}|ones.npy|ex_${algo}.npy"
                "ex_${algo}.npy|iota.npy")
endforeach()
scantool_case(roundtrip_cpu 0 "computed on the CPU with the reference scan"
              "scan|--cpu|ones.npy|ex_cpu.npy" "ex_cpu.npy|iota.npy")
# Random data, several operators: the default path (GPU where present) against --cpu.
foreach(cfg "sum|--exclusive" "sum|--inclusive" "min|--inclusive" "max|--exclusive")
  string(REPLACE "|" "_" tag "${cfg}")
  string(REPLACE "--" "" tag "${tag}")
  foreach(f rand_i32 rand_i64)
    scantool_case(cpu_ref_${f}_${tag} 0 "computed on the CPU"
                  "scan|--cpu|--op|${cfg}|${f}.npy|ref_${f}_${tag}.npy")
    scantool_case(default_${f}_${tag} 0 "" "scan|--op|${cfg}|${f}.npy|got_${f}_${tag}.npy"
                  "got_${f}_${tag}.npy|ref_${f}_${tag}.npy")
    set_tests_properties(scantool.default_${f}_${tag} PROPERTIES
                         DEPENDS scantool.cpu_ref_${f}_${tag})
  endforeach()
endforeach()
# No device (hidden from the CUDA runtime, or no GPU at all as in CI): the CLI must say it fell
# back to the CPU and still produce the right answer.
scantool_case(no_device_fallback 0
              "no CUDA device \\(.+\\); computed on the CPU with the reference scan"
              "scan|ones.npy|ex_nodev.npy" "ex_nodev.npy|iota.npy")
set_tests_properties(scantool.no_device_fallback PROPERTIES ENVIRONMENT CUDA_VISIBLE_DEVICES=-1)
# --verify: on a GPU the result is held against the CPU reference; without one it says the
# reference computed it.
scantool_case(verify 0 "--verify: (all 100003 elements match the CPU reference|computed on the CPU)"
              "scan|--verify|--inclusive|rand_i32.npy|v.npy")
scantool_case(verify_float_sum 0 "--verify: (all 4099 elements match|computed on the CPU)"
              "scan|--verify|f64.npy|vf.npy")
scantool_case(time_flag 0 "[0-9.]+ ms" "scan|--time|--reps|3|rand_i32.npy|t.npy")
scantool_case(gen_same_seed_same_file 0 "" "gen|--n|100003|--seed|5|rand_again.npy"
              "rand_again.npy|rand_i32.npy")

# --- numpy cross-check (only where /usr/bin/python3 has numpy, as on CI and dev machines) -----
set(_st_python /usr/bin/python3)
if(EXISTS ${_st_python})
  execute_process(COMMAND ${_st_python} -c "import numpy" RESULT_VARIABLE _st_no_numpy
                  OUTPUT_QUIET ERROR_QUIET)
  if(_st_no_numpy EQUAL 0)
    add_test(NAME scantool.numpy_roundtrip
             COMMAND ${_st_python} ${_st_dir}/numpy_roundtrip.py $<TARGET_FILE:scantool>
                     ${CMAKE_CURRENT_BINARY_DIR}/scantool_numpy)
    set_tests_properties(scantool.numpy_roundtrip PROPERTIES TIMEOUT 600)
  endif()
endif()

# --- robustness: about 1300 hostile inputs, each checked for its exit status, a message
# naming the problem and no damaged file; numpy gives the expected answers. CPU only in CI; on a
# GPU machine the default path runs on the GPU and must agree all the same.
if(EXISTS ${_st_python} AND _st_no_numpy EQUAL 0)
  add_test(NAME scantool.robustness
           COMMAND ${_st_python} ${PROJECT_SOURCE_DIR}/tests/robustness/scantool_robustness.py
                   $<TARGET_FILE:scantool> ${CMAKE_CURRENT_BINARY_DIR}/scantool_robustness)
  set_tests_properties(scantool.robustness PROPERTIES TIMEOUT 900)
endif()

# --- compact and sort: the default path (GPU where present) against --cpu, and their errors ----
foreach(pair "gt3|>3" "lt_m2|<-2" "ge0|>=0" "eq1|==1" "ne0|!=0" "nonzero|nonzero" "odd|odd" "even|even")
  string(REPLACE "|" ";" pair "${pair}")
  list(GET pair 0 tag)
  list(GET pair 1 test)
  scantool_case(compact_cpu_${tag} 0 "" "compact|--cpu|--keep|${test}|rand_i32.npy|kc_${tag}.npy")
  scantool_case(compact_${tag} 0 "" "compact|--verify|--keep|${test}|rand_i32.npy|kg_${tag}.npy"
                "kg_${tag}.npy|kc_${tag}.npy")
  set_tests_properties(scantool.compact_${tag} PROPERTIES DEPENDS scantool.compact_cpu_${tag})
endforeach()
scantool_case(compact_partition 0 "" "compact|--verify|--partition|--keep|odd|rand_i64.npy|kp.npy")
scantool_case(compact_bad_test 2 "unknown test 'sometimes'" "compact|--keep|sometimes|rand_i32.npy|x.npy")
scantool_case(compact_odd_float 2 "odd/even need an integer dtype" "compact|--keep|odd|f64.npy|x.npy")
scantool_case(compact_bad_value 2 "cannot parse the test value 'abc' as a number" "compact|--keep|>abc|rand_i32.npy|x.npy")
scantool_case(sort_cpu 0 "" "sort|--cpu|rand_i32.npy|sc.npy")
scantool_case(sort_default 0 "" "sort|rand_i32.npy|sg.npy" "sg.npy|sc.npy")
set_tests_properties(scantool.sort_default PROPERTIES DEPENDS scantool.sort_cpu)
scantool_case(sort_bad_dtype 1 "f64.npy" "sort|f64.npy|x.npy")
