#include "scandof/gl/util.hpp"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace scandof::gl {

void delete_buffer(GLuint id) {
  glDeleteBuffers(1, &id);
}
void delete_texture(GLuint id) {
  glDeleteTextures(1, &id);
}
void delete_framebuffer(GLuint id) {
  glDeleteFramebuffers(1, &id);
}
void delete_vertex_array(GLuint id) {
  glDeleteVertexArrays(1, &id);
}
void delete_program(GLuint id) {
  glDeleteProgram(id);
}
void delete_query(GLuint id) {
  glDeleteQueries(1, &id);
}

GlBuffer make_buffer() {
  GLuint id = 0;
  glCreateBuffers(1, &id);
  return GlBuffer(id);
}
GlTexture make_texture(GLenum target) {
  GLuint id = 0;
  glCreateTextures(target, 1, &id);
  return GlTexture(id);
}
GlFramebuffer make_framebuffer() {
  GLuint id = 0;
  glCreateFramebuffers(1, &id);
  return GlFramebuffer(id);
}
GlVertexArray make_vertex_array() {
  GLuint id = 0;
  glCreateVertexArrays(1, &id);
  return GlVertexArray(id);
}
GlQuery make_query() {
  GLuint id = 0;
  glGenQueries(1, &id);
  return GlQuery(id);
}

bool has_extension(const char* name) {
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; ++i) {
    const GLubyte* e = glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i));
    if (e && std::strcmp(reinterpret_cast<const char*>(e), name) == 0) return true;
  }
  return false;
}

bool software_renderer() {
  const char* r = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const std::string s = r ? r : "";
  return s.find("llvmpipe") != std::string::npos || s.find("softpipe") != std::string::npos ||
         s.find("SwiftShader") != std::string::npos;
}

std::string read_text_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open file: " + path);
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) throw std::runtime_error("cannot read file: " + path);
  return ss.str();
}

namespace {

std::string inject_prelude(const std::string& src, const std::vector<std::string>& defines,
                           const std::string& shared) {
  std::string block;
  for (const auto& d : defines) block += "#define " + d + "\n";
  block += shared;
  if (!block.empty() && block.back() != '\n') block += '\n';
  // #version must stay the first line; defines go right after it.
  std::size_t pos = src.find("#version");
  if (pos == std::string::npos) return block + src;
  std::size_t eol = src.find('\n', pos);
  if (eol == std::string::npos) return src + "\n" + block;
  return src.substr(0, eol + 1) + block + "#line 2\n" + src.substr(eol + 1);
}

// GLSL has no #include of its own (without ARB_shading_language_include): a line
// `#include "name.glsl"` is replaced by that file from the shader's folder, one level deep, so the
// fragment and compute DoF passes share one copy of the gather.
std::string expand_includes(const std::string& src, const std::string& dir) {
  std::string out;
  std::istringstream in(src);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    const std::size_t k = line.find("#include \"");
    if (k != std::string::npos && line.find_first_not_of(" \t") == k) {
      const std::size_t b = k + 10, e = line.find('"', b);
      if (e == std::string::npos) throw std::runtime_error("bad #include line: " + line);
      out += "#line 1\n" + read_text_file(dir + "/" + line.substr(b, e - b)) + "\n";
      out += "#line " + std::to_string(n + 1) + "\n";
    } else {
      out += line + "\n";
    }
  }
  return out;
}

std::vector<std::string>& warnings() {
  static std::vector<std::string> w;
  return w;
}

bool names_a_warning(std::string log) {
  for (char& c : log) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return log.find("warning") != std::string::npos;
}

// A shader's or program's status (GL_COMPILE_STATUS, GL_LINK_STATUS), its info log printed to
// stderr whenever there is one: drivers warn there even when the step succeeds.
template <typename GetIv, typename GetLog>
bool status_and_log(GLuint obj, GLenum status, GetIv get_iv, GetLog get_log,
                    const std::string& what) {
  GLint ok = 0, len = 0;
  get_iv(obj, status, &ok);
  get_iv(obj, GL_INFO_LOG_LENGTH, &len);
  if (len > 1) {
    std::string log(static_cast<std::size_t>(len), '\0');
    get_log(obj, len, nullptr, log.data());
    std::fprintf(stderr, "[shader] %s log:\n%s\n", what.c_str(), log.c_str());
    if (names_a_warning(log)) warnings().push_back(what + ": " + log);
  }
  return ok != 0;
}

GLuint compile(GLenum type, const std::string& path, const std::vector<std::string>& defines,
               const std::string& shared) {
  const std::string dir = path.substr(0, path.find_last_of('/'));
  std::string src = inject_prelude(expand_includes(read_text_file(path), dir), defines, shared);
  GLuint sh = glCreateShader(type);
  const char* p = src.c_str();
  glShaderSource(sh, 1, &p, nullptr);
  glCompileShader(sh);
  if (!status_and_log(sh, GL_COMPILE_STATUS, glGetShaderiv, glGetShaderInfoLog,
                      path + " compile")) {
    glDeleteShader(sh);
    throw std::runtime_error("shader compilation failed: " + path);
  }
  return sh;
}

// The link log goes to stderr whenever there is one (a compute program fails to link when, for
// one, its shared arrays pass GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, and only the log says so).
void check_link(GLuint prog, const std::string& what) {
  if (!status_and_log(prog, GL_LINK_STATUS, glGetProgramiv, glGetProgramInfoLog, what + " link"))
    throw std::runtime_error("program link failed: " + what);
}

}  // namespace

const std::vector<std::string>& shader_warnings() { return warnings(); }

GlProgram build_program(const std::string& dir, const std::string& vert, const std::string& frag,
                        const std::vector<std::string>& defines) {
  const std::string shared = read_text_file(dir + "/shared.h");
  const std::string vert_path = dir + "/" + vert, frag_path = dir + "/" + frag;
  GLuint vs = compile(GL_VERTEX_SHADER, vert_path, defines, shared);
  GLuint fs = 0;
  try {
    fs = compile(GL_FRAGMENT_SHADER, frag_path, defines, shared);
  } catch (...) {
    glDeleteShader(vs);
    throw;
  }
  GlProgram prog(glCreateProgram());
  glAttachShader(prog.get(), vs);
  glAttachShader(prog.get(), fs);
  glLinkProgram(prog.get());
  glDeleteShader(vs);
  glDeleteShader(fs);
  check_link(prog.get(), vert_path + " + " + frag_path);
  return prog;
}

GlProgram build_compute_program(const std::string& dir, const std::string& comp,
                                const std::vector<std::string>& defines) {
  const std::string path = dir + "/" + comp;
  GLuint cs = compile(GL_COMPUTE_SHADER, path, defines, read_text_file(dir + "/shared.h"));
  GlProgram prog(glCreateProgram());
  glAttachShader(prog.get(), cs);
  glLinkProgram(prog.get());
  glDeleteShader(cs);
  check_link(prog.get(), path);
  return prog;
}

void GlTimer::begin() {
  auto ensure = [](GlQuery& q) {
    if (!q) q = make_query();
  };
  ensure(t0_[next_]);
  ensure(t1_[next_]);
  if (pending_[next_]) {
    // This slot was issued kRing frames ago; it is normally done by now. If it is not, skip the
    // measurement rather than wait.
    GLint avail = 0;
    glGetQueryObjectiv(t1_[next_].get(), GL_QUERY_RESULT_AVAILABLE, &avail);
    if (avail) {
      GLuint64 a = 0, b = 0;
      glGetQueryObjectui64v(t0_[next_].get(), GL_QUERY_RESULT, &a);
      glGetQueryObjectui64v(t1_[next_].get(), GL_QUERY_RESULT, &b);
      // Some drivers (seen on Mesa llvmpipe) occasionally report nonsense; a pass never takes 10 s.
      if (b >= a && b - a < 10'000'000'000ull) last_ms_ = static_cast<float>((b - a) * 1e-6);
    }
    pending_[next_] = false;
  }
  glQueryCounter(t0_[next_].get(), GL_TIMESTAMP);
}

void GlTimer::end() {
  glQueryCounter(t1_[next_].get(), GL_TIMESTAMP);
  pending_[next_] = true;
  next_ = (next_ + 1) % kRing;
}

namespace {
void GLAPIENTRY debug_message(GLenum, GLenum type, GLuint id, GLenum severity, GLsizei,
                              const GLchar* msg, const void*) {
  if (severity == GL_DEBUG_SEVERITY_NOTIFICATION) return;
  std::fprintf(stderr, "[gl debug] type 0x%x id %u severity 0x%x: %s\n", type, id, severity, msg);
}
}  // namespace

void install_gl_debug_callback() {
  if (!glDebugMessageCallback) return;
  glEnable(GL_DEBUG_OUTPUT);
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(debug_message, nullptr);
}

}  // namespace scandof::gl
