# package_deb (tests/consumer.cmake): builds the .deb packages of a configured and built tree and
# checks what dpkg-deb -c lists in each. cmake -DCPACK= -DDPKG_DEB= -DCONFIG=<build>/CPackConfig.cmake
# -DOUT=<folder> -DDEMO=0|1 -DGLSAT=0|1 -P check_deb.cmake
cmake_policy(VERSION 3.25)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${CPACK} -G DEB --config ${CONFIG} -B ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cpack -G DEB failed (${rc})")
endif()

set(failed FALSE)
function(check_deb glob)  # ARGN: regular expressions, each must match a line of dpkg-deb -c
  file(GLOB debs ${OUT}/${glob})
  if(NOT debs)
    message(SEND_ERROR "no ${glob} in ${OUT}")
    return()
  endif()
  execute_process(COMMAND ${DPKG_DEB} -c ${debs} OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
  execute_process(COMMAND ${DPKG_DEB} -f ${debs} Package Version Depends OUTPUT_VARIABLE fields)
  get_filename_component(name ${debs} NAME)
  message("${name}:\n${fields}")
  foreach(re IN LISTS ARGN)
    if(listing MATCHES "${re}")
      message("  ok   ${CMAKE_MATCH_0}")
    else()
      message(SEND_ERROR "  ${name} lists nothing matching ${re}")
    endif()
  endforeach()
endfunction()

set(dev_expect
  "\\./usr/include/scandof/scan\\.hpp"
  "\\./usr/include/scandof/scan\\.cuh"
  "\\./usr/include/scandof/device/single_pass\\.cuh"
  "\\./usr/lib[^ \n]*/libscandof_kernels\\.a"
  "\\./usr/lib[^ \n]*/cmake/scandof/scandofConfig\\.cmake"
  "\\./usr/lib[^ \n]*/cmake/scandof/scandofConfigVersion\\.cmake"
  "\\./usr/lib[^ \n]*/cmake/scandof/scandofTargets\\.cmake")
if(GLSAT)
  list(APPEND dev_expect "\\./usr/include/scandof/gl/sat_builder\\.hpp"
       "\\./usr/lib[^ \n]*/libscandof_glsat\\.a" "\\./usr/include/scandof/third_party/glad/gl\\.h"
       "\\./usr/share/scandof-glsat/shaders/[^ \n]+")
endif()
check_deb("libscandof-dev_*.deb" ${dev_expect})
set(bin_expect "\\./usr/bin/scantool")
if(DEMO)
  list(APPEND bin_expect "\\./usr/bin/scandof\n" "\\./usr/share/scandof/shaders/[^ \n]+"
       "\\./usr/share/scandof/assets/[^ \n]+" "\\./usr/share/scandof/glsat/shaders/[^ \n]+")
endif()
check_deb("scandof_*.deb" ${bin_expect})

# Both packages install together: no path may be in both (dpkg refuses a file two packages own).
file(GLOB debs ${OUT}/*.deb)
set(seen "")
foreach(deb IN LISTS debs)
  execute_process(COMMAND ${DPKG_DEB} -c ${deb} OUTPUT_VARIABLE listing)
  string(REGEX MATCHALL "\\./[^ \n]*[^/\n]\n" files "${listing}")
  foreach(f IN LISTS files)
    if(f IN_LIST seen)
      string(STRIP "${f}" f)
      message(SEND_ERROR "${f} is in more than one package")
    endif()
  endforeach()
  list(APPEND seen ${files})
endforeach()
