// The GL side of a frame: the teapot scene into an FBO (RGBA8 colour, R32F view-axis distance,
// depth), then, for the fragment DoF pass and the debug views, the full-screen pass of
// shaders/dof.frag (reading the SAT buffer) into an output texture that is shown and screenshotted.
// The compute DoF pass (CUDA, sat_stage.*) writes the same output texture through interop. Owns
// every GL object it uses (RAII); resize() re-creates the targets. Uniform locations, texture units
// and bindings are the constants of shaders/shared.h.
#pragma once

#include <string>
#include <vector>

#include "camera.hpp"
#include "gl_util.hpp"
#include "settings.hpp"
#include "teapot.hpp"

namespace demo {

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

  // `frame_timer`, when given, is started where the scene's GPU work starts (after the clears).
  void render_scene(const Camera& cam, float time_s, GlTimer* frame_timer = nullptr);
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

  GlTimer scene_timer, dof_timer;

 private:
  struct Drawable {
    GlVertexArray vao;
    GlBuffer vbo, ibo;
    GLsizei count = 0;
  };
  Drawable upload(const Mesh& m);
  void load_textures();

  std::string res_;
  BezierPatchSet teapot_data_;
  Drawable teapot_, floor_, wall_;
  GlTexture floor_tex_, wall_tex_;
  GlProgram scene_prog_, dof_prog_, dof_compute_prog_;
  GlVertexArray empty_vao_;
  int width_ = 0, height_ = 0;
  GlTexture color_, depth_, viewz_, output_;
  GlFramebuffer scene_fbo_, output_fbo_;
};

}  // namespace demo
