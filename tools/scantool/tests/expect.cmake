# Runs one scantool command for CTest and checks what a user would see: the exit status, a
# message, no crash. Optionally compares two files afterwards (exact results of integer scans).
#   cmake -DTOOL=<scantool> -DARGS="scan|in.npy|out.npy" [-DEXPECT_RC=0|nonzero|<n>]
#         [-DEXPECT=<regex>] [-DWORKDIR=<dir>] [-DCOMPARE=a.npy|b.npy] -P expect.cmake
# ARGS is '|'-separated because ';' does not survive add_test() intact.
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
