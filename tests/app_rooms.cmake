# app/'s rooms include only downwards (app/demo.cmake): each room's library sees its own headers
# and those of the rooms it links, nothing above. These tests show it the way a contributor would
# meet it: a file of a room that includes a header of a room above does not compile
# (app_rooms_upward_*), while the same file including a room below does (app_rooms_downward_*,
# so an upward failure is the include path's, not something else's). Each probe is a one-line
# source built on demand (EXCLUDE_FROM_ALL) by a nested build of its target.
if(TARGET scandof_app_run)
  # One header of each room, and the pairs (room, a room it must not see; a room it may see).
  set(_hdr_core core/settings.hpp)
  set(_hdr_primitives primitives/run.hpp)
  set(_hdr_scene scene/teapot.hpp)
  set(_hdr_passes passes/frame_targets.hpp)
  set(_hdr_frame frame/app.hpp)
  set(_hdr_diagnostics diagnostics/frame_checks.hpp)
  set(_hdr_ui ui/panels.hpp)
  set(_hdr_automation automation/automation.hpp)
  set(_hdr_run run/cli.hpp)
  set(_probes core:primitives:- primitives:scene:core scene:primitives:core scene:passes:-
              passes:frame:scene frame:diagnostics:passes diagnostics:ui:frame ui:automation:diagnostics
              automation:run:ui)
  set(_dir ${CMAKE_CURRENT_BINARY_DIR}/app_rooms)
  foreach(_p ${_probes})
    string(REPLACE ":" ";" _p ${_p})
    list(GET _p 0 _room)
    list(GET _p 1 _up)
    list(GET _p 2 _down)
    set(_kinds upward:${_up})
    if(NOT _down STREQUAL "-")
      list(APPEND _kinds downward:${_down})
    endif()
    foreach(_k ${_kinds})
      string(REPLACE ":" ";" _k ${_k})
      list(GET _k 0 _kind)
      list(GET _k 1 _other)
      set(_name app_rooms_${_kind}_${_room}_${_other})
      file(WRITE ${_dir}/${_name}.cpp
           "// ${_room}/ including ${_hdr_${_other}} (tests/app_rooms.cmake)\n#include \"${_hdr_${_other}}\"\n")
      add_library(${_name} OBJECT EXCLUDE_FROM_ALL ${_dir}/${_name}.cpp)
      target_link_libraries(${_name} PRIVATE scandof_app_${_room})
      if(_kind STREQUAL "upward")
        set(_expect "${_hdr_${_other}}: No such file or directory")
      else()
        set(_expect "")
      endif()
      add_test(NAME ${_name}
               COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} -DTARGET=${_name}
                       "-DEXPECT=${_expect}" -P ${PROJECT_SOURCE_DIR}/scripts/check_room_probe.cmake)
      # Nested builds of one build folder run one at a time.
      set_tests_properties(${_name} PROPERTIES TIMEOUT 300 LABELS "demo;unit"
                                               RESOURCE_LOCK scandof_nested_build)
    endforeach()
  endforeach()
endif()
