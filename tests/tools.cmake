# The programs the script tests run, looked up once (tests/CMakeLists.txt includes this before the
# other tests/*.cmake files, which use the variables below). A missing tool stops the configure
# with the Debian package that provides it (scripts/setup.sh installs them all): a test group
# that quietly failed to register would pass CI by not running. -DSCANDOF_ALLOW_MISSING_TEST_TOOLS=ON
# accepts the gap; the groups that need the tool are then left out with a status line.
#   SCANDOF_SYS_PYTHON  /usr/bin/python3 able to import numpy (the scripts use Debian's numpy,
#                       never a virtual environment's)                         python3-numpy
#   SCANDOF_XVFB_RUN    xvfb-run, for the demo's windowed tests (only where the demo is built) xvfb
#                       (the demo's checks also need matplotlib)               python3-matplotlib
#   SCANDOF_GLSLANG     glslangValidator, for the GL SAT shader variants               glslang-tools
option(SCANDOF_ALLOW_MISSING_TEST_TOOLS
       "Configure even when a test tool is missing; the tests that need it are not registered" OFF)

set(_scandof_missing_tools)
# what: the tool's description; package: the Debian package; var: the variable to clear.
function(scandof_missing_test_tool var what package)
  set(${var} "" PARENT_SCOPE)
  set(_scandof_missing_tools ${_scandof_missing_tools} "${what} (Debian package ${package})"
      PARENT_SCOPE)
endfunction()

find_program(SCANDOF_SYS_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(SCANDOF_SYS_PYTHON)
  execute_process(COMMAND ${SCANDOF_SYS_PYTHON} -c "import numpy" RESULT_VARIABLE _scandof_numpy_rc
                  OUTPUT_QUIET ERROR_QUIET)
  if(NOT _scandof_numpy_rc EQUAL 0)
    scandof_missing_test_tool(SCANDOF_SYS_PYTHON "numpy for /usr/bin/python3" python3-numpy)
  endif()
else()
  scandof_missing_test_tool(SCANDOF_SYS_PYTHON "/usr/bin/python3 with numpy" python3-numpy)
endif()

if(TARGET scandof)
  find_program(SCANDOF_XVFB_RUN xvfb-run)
  if(NOT SCANDOF_XVFB_RUN)
    scandof_missing_test_tool(SCANDOF_XVFB_RUN "xvfb-run" xvfb)
  endif()
  # The demo's checks read its PNGs with matplotlib.image. Without it they would register and
  # fail, so under SCANDOF_ALLOW_MISSING_TEST_TOOLS the interpreter stays set for the rest.
  if(SCANDOF_SYS_PYTHON)
    execute_process(COMMAND ${SCANDOF_SYS_PYTHON} -c "import matplotlib.image"
                    RESULT_VARIABLE _scandof_mpl_rc OUTPUT_QUIET ERROR_QUIET)
    if(NOT _scandof_mpl_rc EQUAL 0)
      set(_scandof_python ${SCANDOF_SYS_PYTHON})
      scandof_missing_test_tool(SCANDOF_SYS_PYTHON "matplotlib for /usr/bin/python3"
                                python3-matplotlib)
      set(SCANDOF_SYS_PYTHON ${_scandof_python})
    endif()
  endif()
endif()

find_program(SCANDOF_GLSLANG glslangValidator)
if(NOT SCANDOF_GLSLANG)
  scandof_missing_test_tool(SCANDOF_GLSLANG "glslangValidator" glslang-tools)
endif()

if(_scandof_missing_tools)
  string(REPLACE ";" "\n  " _scandof_list "${_scandof_missing_tools}")
  if(SCANDOF_ALLOW_MISSING_TEST_TOOLS)
    message(WARNING "Test tools missing; their tests are not registered "
                    "(SCANDOF_ALLOW_MISSING_TEST_TOOLS=ON):\n  ${_scandof_list}")
  else()
    message(FATAL_ERROR "Test tools missing:\n  ${_scandof_list}\n"
                        "Install them (scripts/setup.sh does), configure with "
                        "-DSCANDOF_BUILD_TESTS=OFF, or accept fewer tests with "
                        "-DSCANDOF_ALLOW_MISSING_TEST_TOOLS=ON.")
  endif()
endif()
