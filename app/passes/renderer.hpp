// The GL side of a frame: the teapot scene into an FBO (RGBA8 colour, R32F view-axis distance,
// depth), then, for the fragment DoF pass and the debug views, the full-screen pass of
// shaders/dof.frag (reading the SAT buffer) into an output texture that is shown and screenshotted.
// The compute DoF pass (CUDA, sat_stage.*) writes the same output texture through interop. Also the
// lens reference (render_reference: the scene through N lens points, averaged), MSAA (a
// multisample scene resolved into the colour and view-z textures) and texture anisotropy. Owns
// every GL object it uses (RAII); resize() re-creates the targets. Uniform locations, texture units
// and bindings are the constants of shaders/shared.h.
#pragma once

#include <string>
#include <vector>

#include "frame/camera.hpp"
#include "scandof/gl/util.hpp"
#include "frame/settings.hpp"
#include "passes/teapot.hpp"

namespace demo {
namespace gl = scandof::gl;

// Throws std::runtime_error naming the limit when a width x height frame exceeds what the current
// GL context allows (texture, renderbuffer and viewport sizes, the SAT's shader storage block).
void check_frame_size(int width, int height);

class Renderer {
 public:
  // Loads shaders and assets from `resources` (holding shaders/ and assets/). Throws naming the
  // missing or broken file.
  Renderer(const std::string& resources, int tessellation);

  // (Re)creates the frame targets; width/height must be > 0.
  void resize(int width, int height);
  int width() const { return width_; }
  int height() const { return height_; }
  void set_tessellation(int level);
  // Rebuilds the DoF program with the defines the SAT format needs.
  void set_sat_format(scandof::SatFormat f);

  // Anisotropic filtering of the floor and wall textures (mipmapped): 1 = off; clamped to the
  // GPU's limit (GL 4.6 core or GL_{EXT,ARB}_texture_filter_anisotropic; without: stays 1).
  // Returns the value set.
  float set_anisotropy(float a);
  float max_anisotropy() const { return max_aniso_; }
  float anisotropy() const { return aniso_; }
  // Scene samples per pixel (1 = off; clamped to GL_MAX_SAMPLES): a multisample FBO resolved by
  // shaders/resolve.frag into the colour and view-z textures (colour mean, nearest z).
  void set_msaa(int samples);
  int msaa() const { return msaa_; }
  // Deferred planes (the App sets it from Settings::scene_shading): the sharp frame's floor and
  // wall are shaded by a compute pass after rasterisation (shaders/shade_planes.comp says why);
  // false: all in scene.frag. MSAA frames and the lens reference always shade forward.
  void set_deferred_planes(bool on) { deferred_planes_ = on; }
  bool deferred_planes_active() const { return deferred_planes_ && msaa_ == 1; }

  // `frame_timer`, when given, is started where the scene's GPU work starts (after the clears).
  void render_scene(const Camera& cam, float time_s, gl::GlTimer* frame_timer = nullptr);
  // The lens reference (Haeberli & Akeley's accumulation buffer): the scene drawn `samples` times
  // through the points of dof::lens_sample on a lens of radius L = dof::lens_radius(A, z_f, f_px)
  // (f_px from the camera's vertical field of view), each into an RGBA8 frame (as the sharp frame
  // is) added into an RGBA32F target; returns the mean, RGB float, rows bottom-up. The shift per
  // sample is shaders/scene.vert's; with `clamp` it stops at max_radius. With MSAA each sample
  // frame is multisampled as the scene is, and resolved by its mean.
  std::vector<float> render_reference(const Camera& cam, float time_s, float aperture_px,
                                      float focus, float max_radius, bool clamp, int samples);
  // Host wall time of the last reference's GL work (issued and glFinish'd, read back excluded).
  float reference_render_ms() const { return ref_render_ms_; }
  void render_dof(const Settings& s, GLuint sat_buffer);
  // The DepthOfField view as a GL compute pass (shaders/dof.comp) into the output texture.
  void render_dof_compute(const Settings& s, GLuint sat_buffer);
  // Copies the output to the default framebuffer (window mode), scaled to its size.
  void present(int fb_width, int fb_height);

  GLuint color_texture() const { return color_.get(); }
  GLuint viewz_texture() const { return viewz_.get(); }  // R32F distance along the view axis
  GLuint output_texture() const { return output_.get(); }
  // Binds the output FBO for drawing on top of the frame (headless panels).
  void bind_output() const;
  // Scene distance along the view axis at pixel (x, y) (GL order, bottom-left origin); reads one
  // depth value back (used on click, not per frame). Returns < 0 on the background clear.
  float distance_at(int x, int y);
  std::vector<uint8_t> read_rgba(GLuint texture) const;  // bottom-up RGBA8
  std::vector<float> read_viewz() const;                 // bottom-up view z
  void upload_output(const uint8_t* rgba);               // width x height RGBA8, bottom-up

  gl::GlTimer scene_timer, dof_timer;

 private:
  struct Drawable {
    gl::GlVertexArray vao;
    gl::GlBuffer vbo, ibo;
    GLsizei count = 0;
  };
  Drawable upload(const Mesh& m);
  void load_textures();
  // Uniforms + draws; target bound by the caller; grids: the lens reference's gridded floor/wall;
  // deferred: scene_deferred_prog_ is bound (the planes are marked, not shaded).
  void draw_scene(const Camera& cam, float time_s, bool grids, bool deferred = false);
  void shade_planes(const Camera& cam);
  void make_msaa_targets();

  std::string res_;
  BezierPatchSet teapot_data_;
  Drawable teapot_, floor_, wall_, floor_grid_, wall_grid_;
  gl::GlTexture floor_tex_, wall_tex_;
  gl::GlProgram scene_prog_, scene_deferred_prog_, planes_prog_, dof_prog_, dof_compute_prog_,
      accum_prog_, accum_ms_prog_, resolve_prog_, clear_prog_;
  gl::GlVertexArray empty_vao_;
  int width_ = 0, height_ = 0;
  gl::GlTexture color_, depth_, viewz_, output_;
  gl::GlFramebuffer scene_fbo_, output_fbo_;
  float aniso_ = 1.0f, max_aniso_ = 1.0f;
  int msaa_ = 1;
  bool deferred_planes_ = true;
  gl::GlTexture ms_color_, ms_viewz_, ms_depth_;  // msaa_ > 1
  gl::GlFramebuffer ms_fbo_;
  gl::GlTexture ref_color_, ref_depth_, ref_accum_;  // the lens reference's targets, made on first use
  gl::GlFramebuffer ref_fbo_;
  int ref_samples_ = 1;  // MSAA samples of ref_color_ / ref_depth_
  float ref_render_ms_ = 0;
};

// World position of teapot i (0 = the near red one .. kNumTeapots - 1 = the far white one), at
// half its height: what autofocus on a teapot focuses on.
constexpr int kNumTeapots = 5;
glm::vec3 teapot_position(int i);

}  // namespace demo
