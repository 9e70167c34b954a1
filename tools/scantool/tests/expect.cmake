# Runs one scantool command for CTest and checks what a user would see: the exit status, a
# message, no crash. Optionally compares two files afterwards (exact results of integer scans) and
# holds the result against an independent oracle (tests/scantool_oracle.py: numpy computes the
# answer from the same input files).
#   cmake -DTOOL=<scantool> -DARGS="scan|in.npy|out.npy" [-DEXPECT_RC=0|nonzero|<n>]
#         [-DEXPECT=<regex>] [-DWORKDIR=<dir>] [-DCOMPARE=a.npy|b.npy]
#         [-DORACLE=<python>|<scantool_oracle.py>] [-DNEEDS_GPU=ON] -P expect.cmake
# ARGS is '|'-separated because ';' does not survive add_test() intact.
# NEEDS_GPU: the case checks the GPU path; where scantool fell back to the CPU it prints
# "SKIPPED: no CUDA device" (the test's SKIP_REGULAR_EXPRESSION) and checks nothing, or fails
# under SCANDOF_REQUIRE_GPU=1 as the GPU suites do.
if(NOT TOOL)
  message(FATAL_ERROR "expect.cmake: TOOL not set")
endif()
string(REPLACE "|" ";" _args "${ARGS}")
if(NOT DEFINED EXPECT_RC)
  set(EXPECT_RC 0)
endif()
if(NOT WORKDIR)
  set(WORKDIR ".")
endif()
execute_process(COMMAND ${TOOL} ${_args} WORKING_DIRECTORY ${WORKDIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
message("$ scantool ${_args}\n${all}[exit status ${rc}]")

if(EXPECT_RC STREQUAL "nonzero")
  if(rc EQUAL 0 OR NOT rc MATCHES "^[0-9]+$")
    message(FATAL_ERROR "expected a non-zero exit status, got '${rc}'")
  endif()
elseif(NOT rc STREQUAL EXPECT_RC)
  message(FATAL_ERROR "expected exit status ${EXPECT_RC}, got '${rc}'")
endif()
# Whatever the status, a crash or an escaped exception is a bug.
if(all MATCHES "terminate called|Segmentation|Aborted|core dumped|what\\(\\)")
  message(FATAL_ERROR "the tool crashed or leaked an exception")
endif()
if(NEEDS_GPU AND all MATCHES "scantool: no CUDA device \\(([^)]*)\\)")
  set(_why "${CMAKE_MATCH_1}")
  if(NOT "$ENV{SCANDOF_REQUIRE_GPU}" STREQUAL "" AND NOT "$ENV{SCANDOF_REQUIRE_GPU}" STREQUAL "0")
    message(FATAL_ERROR "SCANDOF_REQUIRE_GPU is set but scantool found no CUDA device: ${_why}")
  endif()
  message("SKIPPED: no CUDA device (${_why}); this case checks the GPU path")
  return()
endif()
if(NOT "${EXPECT}" STREQUAL "")
  if(NOT all MATCHES "${EXPECT}")
    message(FATAL_ERROR "output does not match '${EXPECT}'")
  endif()
endif()
if(COMPARE)
  string(REPLACE "|" ";" _files "${COMPARE}")
  list(GET _files 0 a)
  list(GET _files 1 b)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${a} ${b} WORKING_DIRECTORY ${WORKDIR}
                  RESULT_VARIABLE same)
  if(NOT same EQUAL 0)
    message(FATAL_ERROR "${a} and ${b} differ")
  endif()
endif()
if(ORACLE)
  string(REPLACE "|" ";" _oracle "${ORACLE}")
  # The oracle reads the printed count of a compaction and where the run went from this.
  string(MD5 _key "${ARGS}")
  set(_log ${WORKDIR}/oracle_${_key}.txt)
  file(WRITE ${_log} "${all}")
  execute_process(COMMAND ${_oracle} --tool-output ${_log} -- ${_args} WORKING_DIRECTORY ${WORKDIR}
                  RESULT_VARIABLE orc OUTPUT_VARIABLE oout ERROR_VARIABLE oerr)
  message("${oout}${oerr}")
  if(NOT orc EQUAL 0)
    message(FATAL_ERROR "the result differs from the numpy oracle (exit status ${orc})")
  endif()
endif()
