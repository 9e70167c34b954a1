# The published tables against their data (scripts/results.py --check): a table edited by hand, a
# figure with no data file behind it, or data without its record (commit, device, driver, date,
# command) fails here, in CI, which has no GPU: it reads only the committed files.
if(SCANDOF_SYS_PYTHON)
  add_test(NAME results_check
           COMMAND ${SCANDOF_SYS_PYTHON} ${PROJECT_SOURCE_DIR}/scripts/results.py --check)
  # The check's own test: a figure changed by hand in a copy of the record must fail it.
  add_test(NAME results_check_catches_edit
           COMMAND ${SCANDOF_SYS_PYTHON} ${PROJECT_SOURCE_DIR}/tests/check_results_edit.py
                   ${PROJECT_SOURCE_DIR})
endif()
