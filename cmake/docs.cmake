# `cmake --build <build> --target docs`: the API reference of the public headers (the top-level
# kernels/include/scandof/*.hpp, *.cuh and glsat/include/scandof/gl/*.hpp; not block/, device/,
# warp/, util/) as HTML in <build>/docs/html. Not part of the default build or the tests, so
# doxygen (Debian package doxygen) is optional: without it the target fails saying so.
# The headers are commented with plain //; cmake/doxygen_filter.sed turns those comments into
# Doxygen's /// and ///< on the fly, so the headers need no Doxygen markup.
find_package(Doxygen QUIET)
if(DOXYGEN_FOUND)
  set(SCANDOF_DOCS_INPUT "${PROJECT_SOURCE_DIR}/kernels/include/scandof")
  if(EXISTS ${PROJECT_SOURCE_DIR}/glsat/include/scandof/gl)
    string(APPEND SCANDOF_DOCS_INPUT " ${PROJECT_SOURCE_DIR}/glsat/include/scandof/gl")
  endif()
  set(SCANDOF_DOCS_FILTER "sed -f ${CMAKE_CURRENT_LIST_DIR}/doxygen_filter.sed")
  configure_file(${CMAKE_CURRENT_LIST_DIR}/Doxyfile.in ${CMAKE_BINARY_DIR}/docs/Doxyfile @ONLY)
  add_custom_target(docs
    COMMAND ${DOXYGEN_EXECUTABLE} ${CMAKE_BINARY_DIR}/docs/Doxyfile
    WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/docs
    COMMENT "API reference -> ${CMAKE_BINARY_DIR}/docs/html/index.html"
    VERBATIM)
else()
  add_custom_target(docs
    COMMAND ${CMAKE_COMMAND} -E echo
            "docs: doxygen not found; install it (Debian: apt-get install doxygen) and reconfigure"
    COMMAND ${CMAKE_COMMAND} -E false
    VERBATIM)
endif()
