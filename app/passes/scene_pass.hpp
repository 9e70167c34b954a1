// The scene pass: five teapots (tessellated from Newell's patches, teapot.*), the floor and the
// wall (scene_layout.*), or a loaded glTF scene in their place (set_model: scene/mesh_scene.*,
// drawn with shaders/scene_gltf.frag), into the frame targets' colour, view z and depth with shaders/scene.vert /
// scene.frag. Its GL timer spans the draw, the deferred planes pass (planes_pass.*) where it runs,
// and the MSAA resolve (shaders/resolve.frag: colour = mean of the samples, view z = the nearest).
// The lens reference (passes/lens_reference.*) draws the same scene through draw_lens_sample.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/camera.hpp"
#include "passes/frame_targets.hpp"
#include "scene/teapot.hpp"
#include "scandof/gl/util.hpp"
#include "scene/mesh_scene.hpp"

namespace demo {

class ScenePass {
 public:
  // Loads shaders and assets from `resources` (holding shaders/ and assets/). Throws naming the
  // missing or broken file.
  ScenePass(const std::string& resources, int tessellation);

  void set_tessellation(int level);
  // What the pass draws: a loaded scene (its textures get the pass's anisotropy), or, with
  // nullptr, the teapots, floor and wall. Every draw (sharp frame, lens samples) follows it.
  void set_model(std::unique_ptr<MeshScene> model);
  const MeshScene* model() const { return model_.get(); }
  // Changes whenever what is drawn changes (the lens reference's key holds it).
  std::uint64_t scene_id() const { return scene_id_; }
  // The floor and wall are drawn (the teapot scene): only then has the planes pass work.
  bool has_planes() const { return !model_; }
  // The HDR frame (shaders built with HDR: linear radiance, the bulbs of scene_layout drawn) or the
  // paper's LDR one. Rebuilds the programs when it changes.
  void set_hdr(bool hdr);
  bool hdr() const { return hdr_; }
  // Highlight intensity (HDR): the bulbs' radiance and the specular gain.
  void set_highlight(float k) { highlight_ = k; }
  // Anisotropic filtering of the floor and wall textures (mipmapped): 1 = off; clamped to the
  // GPU's limit (GL 4.6 core or GL_{EXT,ARB}_texture_filter_anisotropic; without: stays 1).
  // Returns the value set.
  float set_anisotropy(float a);
  float max_anisotropy() const { return max_aniso_; }
  float anisotropy() const { return aniso_; }
  GLuint floor_texture() const { return floor_tex_.get(); }
  GLuint wall_texture() const { return wall_tex_.get(); }

  // Clears colour and view z (shaders/clear_scene.comp: glClear of these targets cost 0.44 ms a
  // 1080p frame on the H100; multisample targets are cleared by GL) and depth, then starts
  // `frame_timer` (when given) and the pass's timer. The timers start after the clears: the first
  // writes to textures CUDA read last frame are where GL waits for that frame's unmap, and that
  // wait belongs to the previous frame, not to this one.
  void begin(const FrameTargets& t, gl::GlTimer* frame_timer = nullptr);
  // Draws the scene; `deferred`: the floor and wall are only marked (scene.frag DEFER_PLANES), for
  // the planes pass to shade.
  void draw(const FrameTargets& t, const Camera& cam, float time_s, bool deferred);
  // Resolves a multisample frame into the colour and view-z textures; stops the pass's timer.
  void end(const FrameTargets& t);
  float ms() const { return timer_.ms(); }

  // The second depth layer (passes/peel_pass.*) into the bound target: the scene drawn forward
  // (the floor and wall shaded in the fragment) with shaders/peel.glsl's test against the first
  // layer's view z `first_viewz` and the lens and layers of `lens` (A, z_f, r_max, K). The PEEL
  // programs are built on first use, so a frame without the second layer builds nothing more.
  void draw_peel(int width, int height, const Camera& cam, float time_s, GLuint first_viewz,
                 const float lens[4]);

  // The two-layer oracle (oracle_score, diagnostics/frame_checks.hpp): while > 0, draw_lens_sample leaves out every
  // fragment nearer than view z `z` (the teapot scene; a loaded scene ignores it). 0: off.
  void set_near_cut(float z) { near_cut_ = z; }

  // One lens sample of the reference into the bound target: the floor and wall as 1 m grids (the
  // clamped shift is exact at vertices), the shift of scene.vert for lens point (lx, ly) on the
  // unit disc; `clamp_radius` < 0: unclamped.
  void draw_lens_sample(int width, int height, const Camera& cam, float time_s, float lx, float ly,
                        float aperture_px, float focus, float clamp_radius);

 private:
  struct Drawable {
    gl::GlVertexArray vao;
    gl::GlBuffer vbo, ibo;
    GLsizei count = 0;
  };
  static Drawable upload(const Mesh& m);
  void load_textures();
  void build_programs();
  // Uniforms + draws; target and program bound by the caller; grids: the lens reference's gridded
  // floor/wall; deferred: the planes are marked, not shaded.
  void draw_scene(int width, int height, const Camera& cam, float time_s, bool grids,
                  bool deferred);

  std::string res_;
  BezierPatchSet teapot_data_;
  Drawable teapot_, floor_, wall_, floor_grid_, wall_grid_, sphere_;
  gl::GlTexture floor_tex_, wall_tex_;
  gl::GlProgram scene_prog_, scene_deferred_prog_, resolve_prog_, clear_prog_;
  gl::GlProgram gltf_prog_;  // scene.vert + scene_gltf.frag
  gl::GlProgram peel_prog_, gltf_peel_prog_;  // the same with PEEL (draw_peel; built on first use)
  gl::GlProgram cut_prog_;  // scene.frag with NEAR_CUT (set_near_cut; built on first use)
  float near_cut_ = 0.0f;
  std::unique_ptr<MeshScene> model_;
  std::uint64_t scene_id_ = 0;
  gl::GlVertexArray empty_vao_;
  float aniso_ = 1.0f, max_aniso_ = 1.0f;
  bool hdr_ = false;
  float highlight_ = 1.0f;
  gl::GlTimer timer_;
};

}  // namespace demo
