# Build glue for the demo's external packages (Debian: python3-glad, libglfw3-dev, libimgui-dev,
# libstb-dev, libegl-dev). Nothing is vendored: the GL loader is generated at build time, the rest
# comes from the system. Defines the targets scandof_glad, scandof_imgui, scandof_stb, scandof_egl,
# and finds glm (libglm-dev, header-only: glm::glm). CLI11 and nlohmann-json are found at the top.

# --- glad: GL 4.5 core loader, generated offline (--reproducible uses the bundled XML specs) -----
# glad emits C; the project itself is C++/CUDA only.
enable_language(C)
find_program(SCANDOF_GLAD glad REQUIRED)
set(_glad_out ${CMAKE_BINARY_DIR}/generated/glad)
add_custom_command(
  OUTPUT ${_glad_out}/src/gl.c ${_glad_out}/include/glad/gl.h
  COMMAND ${SCANDOF_GLAD} --api gl:core=4.5 --extensions GL_KHR_debug --out-path ${_glad_out}
          --reproducible --quiet c
  COMMENT "Generating the OpenGL 4.5 core loader with glad"
  VERBATIM)
add_library(scandof_glad STATIC ${_glad_out}/src/gl.c)
# Installed with scandof::glsat, whose headers include <glad/gl.h> (cmake/install.cmake).
target_include_directories(scandof_glad PUBLIC $<BUILD_INTERFACE:${_glad_out}/include>
                                               $<INSTALL_INTERFACE:include/scandof/third_party>)
set_target_properties(scandof_glad PROPERTIES POSITION_INDEPENDENT_CODE ON EXPORT_NAME glad)

# --- glm: the camera's and the scene's matrices ----------------------------------------------------
find_package(glm CONFIG REQUIRED)

# --- GLFW (windowed mode) ------------------------------------------------------------------------
find_package(PkgConfig REQUIRED)
pkg_check_modules(SCANDOF_GLFW REQUIRED IMPORTED_TARGET glfw3)

# --- EGL (headless mode): the system's libglvnd libEGL -------------------------------------------
find_path(SCANDOF_EGL_INCLUDE EGL/egl.h REQUIRED)
find_library(SCANDOF_EGL_LIB EGL REQUIRED)
add_library(scandof_egl INTERFACE)
set_target_properties(scandof_egl PROPERTIES EXPORT_NAME egl)
target_include_directories(scandof_egl INTERFACE ${SCANDOF_EGL_INCLUDE})
target_link_libraries(scandof_egl INTERFACE ${SCANDOF_EGL_LIB})

# --- stb: Debian ships libstb (stb_image, stb_image_write, stb_truetype, stb_rect_pack) ----------
find_path(SCANDOF_STB_INCLUDE stb_image.h PATH_SUFFIXES stb REQUIRED)
find_library(SCANDOF_STB_LIB stb REQUIRED)
add_library(scandof_stb INTERFACE)
target_include_directories(scandof_stb INTERFACE ${SCANDOF_STB_INCLUDE})
target_link_libraries(scandof_stb INTERFACE ${SCANDOF_STB_LIB})

# --- Dear ImGui 1.86: libimgui.a holds the core and the GLFW + OpenGL3 backends. Only the objects
# the demo references get linked, so its SDL/Allegro/FreeType members cost nothing; the font
# rasterizer (imgui_draw) needs stb_truetype/stb_rect_pack from libstb.
find_path(SCANDOF_IMGUI_INCLUDE imgui.h PATH_SUFFIXES imgui REQUIRED)
find_library(SCANDOF_IMGUI_LIB NAMES libimgui.a imgui REQUIRED)
add_library(scandof_imgui INTERFACE)
target_include_directories(scandof_imgui INTERFACE ${SCANDOF_IMGUI_INCLUDE}
                                                   ${SCANDOF_IMGUI_INCLUDE}/backends)
target_link_libraries(scandof_imgui INTERFACE ${SCANDOF_IMGUI_LIB} scandof_stb PkgConfig::SCANDOF_GLFW
                                              ${CMAKE_DL_LIBS})
