# CTest fixture: the inputs the scantool cases share, made with `scantool gen` so no numpy is
# needed. Sizes are awkward on purpose (not multiples of any tile).
file(REMOVE_RECURSE ${WORKDIR})
file(MAKE_DIRECTORY ${WORKDIR})
set(gens
    "--dist|ones|--n|100003|ones.npy"
    "--dist|iota|--n|100003|iota.npy"
    "--n|100003|--seed|5|rand_i32.npy"
    "--dtype|int64|--n|4099|--seed|6|rand_i64.npy"
    "--dtype|uint8|--n|1000|u8.npy"
    "--dtype|float64|--n|4099|--low|-1|--high|1|f64.npy"
    "--shape|3x5|img.npy"
    "--dtype|uint8|--n|100003|--high|1|--seed|7|flags.npy"
    "--dtype|uint32|--n|100003|--seed|8|vals_u32.npy"
    "--dtype|float32|--n|4099|--low|-1|--high|1|--seed|9|f32.npy"
    "--dtype|float32|--n|1048583|--low|-1|--high|1|--seed|10|f32_big.npy")
foreach(g IN LISTS gens)
  string(REPLACE "|" ";" a "${g}")
  execute_process(COMMAND ${TOOL} gen ${a} WORKING_DIRECTORY ${WORKDIR} RESULT_VARIABLE rc
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "scantool gen ${a} failed (${rc}): ${err}")
  endif()
endforeach()
file(WRITE ${WORKDIR}/not_npy.npy "this is a text file, not a .npy array\n")
