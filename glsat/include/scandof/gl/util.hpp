// RAII wrappers for the GL objects the demo owns, shader program building with injected #defines,
// and a GL timer that never stalls the pipeline. Needs a current GL 4.5 context (glad loaded).
#pragma once

#include <glad/gl.h>

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace scandof::gl {

// Move-only owner of one GL name; Deleter is called with the name when it is released.
template <void (*Deleter)(GLuint)>
class GlName {
 public:
  GlName() = default;
  explicit GlName(GLuint id) : id_(id) {}
  ~GlName() { reset(); }
  GlName(const GlName&) = delete;
  GlName& operator=(const GlName&) = delete;
  GlName(GlName&& o) noexcept : id_(std::exchange(o.id_, 0)) {}
  GlName& operator=(GlName&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, 0);
    }
    return *this;
  }
  GLuint get() const { return id_; }
  explicit operator bool() const { return id_ != 0; }
  void reset() {
    if (id_) Deleter(id_);
    id_ = 0;
  }

 private:
  GLuint id_ = 0;
};

void delete_buffer(GLuint id);
void delete_texture(GLuint id);
void delete_framebuffer(GLuint id);
void delete_vertex_array(GLuint id);
void delete_program(GLuint id);
void delete_query(GLuint id);

using GlBuffer = GlName<delete_buffer>;
using GlTexture = GlName<delete_texture>;
using GlFramebuffer = GlName<delete_framebuffer>;
using GlVertexArray = GlName<delete_vertex_array>;
using GlProgram = GlName<delete_program>;
using GlQuery = GlName<delete_query>;

GlBuffer make_buffer();
GlTexture make_texture(GLenum target);
GlFramebuffer make_framebuffer();
GlVertexArray make_vertex_array();
GlQuery make_query();  // a name for glQueryCounter or glBeginQuery of any target

// Every compile or link log of this process's shaders that warned ("what: log"), oldest first:
// drivers warn in the log of a step that succeeds, and the tests require none on the driver they
// run on (a warning is often a driver reading the source differently from the next one).
const std::vector<std::string>& shader_warnings();

// Reads a text file; throws std::runtime_error naming the file when it is missing or unreadable.
std::string read_text_file(const std::string& path);

// Whether the current context renders in software (Mesa llvmpipe/softpipe, SwiftShader).
bool software_renderer();

// Whether the current context offers the named extension (GL_NUM_EXTENSIONS / glGetStringi).
bool has_extension(const char* name);

// Compiles and links a program from dir/vert and dir/frag. After each #version line it pastes
// `defines` ("NAME" or "NAME VALUE") and dir/shared.h, the constants C++ shares with GLSL (uniform
// locations, bindings, view ids, array sizes). Compile and link logs are printed in full; failure
// throws naming the file.
GlProgram build_program(const std::string& dir, const std::string& vert, const std::string& frag,
                        const std::vector<std::string>& defines = {});
// A compute program from one shader file, with the same defines, shared.h prelude and
// `#include "file"` expansion as build_program.
GlProgram build_compute_program(const std::string& dir, const std::string& comp,
                                const std::vector<std::string>& defines = {});

// GPU time of a pass (or a whole frame). Results are read a few frames late from a ring of queries,
// so timing costs no pipeline stall; ms() is the latest completed measurement.
class GlTimer {
 public:
  void begin();
  void end();
  float ms() const { return last_ms_; }

 private:
  // Timestamp pairs (glQueryCounter) rather than GL_TIME_ELAPSED, so timers may nest: the frame's
  // own span encloses the scene and DoF spans. Read kRing frames later, never waiting.
  static constexpr int kRing = 4;
  std::array<GlQuery, kRing> t0_, t1_;
  std::array<bool, kRing> pending_{};
  int next_ = 0;
  float last_ms_ = 0;
};

// Installs a KHR_debug message callback (debug builds) that prints GL errors and warnings.
void install_gl_debug_callback();

}  // namespace scandof::gl
