#include "scene/gltf_loader.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <nlohmann/json.hpp>
#include <stb_image.h>
#include <tiny_gltf.h>

namespace demo {

namespace {

namespace tg = tinygltf;

// Extensions this renderer understands; a file that requires any other is refused, since drawing
// it without (Draco-compressed or quantized geometry, say) would draw garbage.
const std::set<std::string> kSupportedRequired = {"KHR_lights_punctual",
                                                   "KHR_materials_emissive_strength"};

constexpr int kMaxLights = 8;  // scene_gltf.frag's GLTF_MAX_LIGHTS

struct Fail {
  std::string file;
  [[noreturn]] void operator()(const std::string& what) const {
    throw SceneLoadError(file + ": " + what);
  }
};

// Images are decoded here, not by tinygltf's own loader: the size is checked (stbi_info) before
// stb allocates it, every image becomes RGBA8, and the total is bounded.
struct ImageBudget {
  const LoadLimits* limits;
  std::size_t used = 0;
};

bool load_image(tg::Image* image, const int index, std::string* err, std::string* /*warn*/,
                int, int, const unsigned char* bytes, int size, void* user) {
  auto* budget = static_cast<ImageBudget*>(user);
  int w = 0, h = 0, comp = 0;
  if (!stbi_info_from_memory(bytes, size, &w, &h, &comp)) {
    if (err) *err += "image " + std::to_string(index) + ": not a PNG/JPEG stb can read\n";
    return false;
  }
  const std::size_t need = static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4;
  if (w <= 0 || h <= 0 || w > budget->limits->max_texture_side ||
      h > budget->limits->max_texture_side ||
      budget->used + need > budget->limits->max_texture_bytes) {
    if (err)
      *err += "image " + std::to_string(index) + ": " + std::to_string(w) + "x" +
              std::to_string(h) + " is beyond the texture limits\n";
    return false;
  }
  unsigned char* px = stbi_load_from_memory(bytes, size, &w, &h, &comp, 4);
  if (!px) {
    if (err) *err += "image " + std::to_string(index) + ": " + stbi_failure_reason() + "\n";
    return false;
  }
  image->width = w;
  image->height = h;
  image->component = 4;
  image->bits = 8;
  image->pixel_type = TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE;
  image->image.assign(px, px + need);
  stbi_image_free(px);
  budget->used += need;
  return true;
}

bool add_ok(std::size_t a, std::size_t b, std::size_t* out) {
  if (a > std::numeric_limits<std::size_t>::max() - b) return false;
  *out = a + b;
  return true;
}

bool finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// One accessor's bytes, range-checked against its buffer view and buffer.
struct AccessorView {
  const unsigned char* base = nullptr;
  std::size_t count = 0, stride = 0;
  int component = 0, comps = 0;
  bool normalized = false;
};

int component_size(int t) {
  switch (t) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return 1;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return 2;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return 4;
    default:
      return 0;
  }
}

int type_components(int t) {
  switch (t) {
    case TINYGLTF_TYPE_SCALAR:
      return 1;
    case TINYGLTF_TYPE_VEC2:
      return 2;
    case TINYGLTF_TYPE_VEC3:
      return 3;
    case TINYGLTF_TYPE_VEC4:
      return 4;
    default:
      return 0;
  }
}

class Reader {
 public:
  Reader(const tg::Model& m, const Fail& fail, const LoadLimits& lim)
      : m_(m), fail_(fail), lim_(lim) {}

  AccessorView view(int index, const char* what, int want_comps) const {
    const std::string where = std::string(what) + " accessor " + std::to_string(index);
    if (index < 0 || static_cast<std::size_t>(index) >= m_.accessors.size())
      fail_(where + " does not exist (" + std::to_string(m_.accessors.size()) + " accessors)");
    const tg::Accessor& a = m_.accessors[index];
    if (a.sparse.isSparse) fail_(where + " is sparse, which this loader does not read");
    AccessorView v;
    v.comps = type_components(a.type);
    v.component = a.componentType;
    v.normalized = a.normalized;
    v.count = a.count;
    const int csize = component_size(a.componentType);
    if (v.comps != want_comps || csize == 0)
      fail_(where + ": type " + std::to_string(a.type) + " / component type " +
            std::to_string(a.componentType) + " where " + std::to_string(want_comps) +
            " components are needed");
    if (a.count == 0) fail_(where + " has no elements");
    if (a.count > lim_.max_indices || a.count > lim_.max_vertices * 3)
      fail_(where + ": " + std::to_string(a.count) + " elements is beyond the limit");
    if (a.bufferView < 0 || static_cast<std::size_t>(a.bufferView) >= m_.bufferViews.size())
      fail_(where + ": buffer view " + std::to_string(a.bufferView) + " does not exist");
    const tg::BufferView& bv = m_.bufferViews[a.bufferView];
    if (bv.buffer < 0 || static_cast<std::size_t>(bv.buffer) >= m_.buffers.size())
      fail_(where + ": buffer " + std::to_string(bv.buffer) + " does not exist");
    const tg::Buffer& buf = m_.buffers[bv.buffer];
    const std::size_t elem = static_cast<std::size_t>(csize) * v.comps;
    v.stride = bv.byteStride ? bv.byteStride : elem;
    if (v.stride < elem || v.stride > 252)
      fail_(where + ": byte stride " + std::to_string(bv.byteStride) + " for " +
            std::to_string(elem) + "-byte elements");
    std::size_t view_end = 0, start = 0, span = 0, end = 0;
    // count <= the limits above and stride <= 252: the product cannot overflow.
    span = v.stride * (a.count - 1) + elem;
    if (!add_ok(bv.byteOffset, bv.byteLength, &view_end) || view_end > buf.data.size())
      fail_(where + ": its buffer view runs past buffer " + std::to_string(bv.buffer) + " (" +
            std::to_string(buf.data.size()) + " bytes" +
            (buf.data.empty() ? ": missing or not loaded" : "") + ")");
    if (!add_ok(bv.byteOffset, a.byteOffset, &start) || !add_ok(start, span, &end) ||
        end > view_end)
      fail_(where + ": " + std::to_string(a.count) + " elements run past its buffer view");
    v.base = buf.data.data() + start;
    return v;
  }

  // Float attribute (FLOAT, or normalized integers for texture coordinates) into out[i * comps].
  void floats(const AccessorView& v, const std::string& where, std::vector<float>* out) const {
    out->resize(v.count * v.comps);
    for (std::size_t i = 0; i < v.count; ++i) {
      const unsigned char* p = v.base + i * v.stride;
      for (int c = 0; c < v.comps; ++c) {
        float f = 0;
        switch (v.component) {
          case TINYGLTF_COMPONENT_TYPE_FLOAT:
            std::memcpy(&f, p + 4 * c, 4);
            break;
          case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
            f = p[c] / 255.0f;
            break;
          case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
            uint16_t s;
            std::memcpy(&s, p + 2 * c, 2);
            f = s / 65535.0f;
            break;
          }
          default:
            fail_(where + ": component type " + std::to_string(v.component) +
                  " is not float or a normalized unsigned integer");
        }
        if (v.component != TINYGLTF_COMPONENT_TYPE_FLOAT && !v.normalized)
          fail_(where + ": integer components that are not normalized");
        (*out)[i * v.comps + c] = f;
      }
    }
  }

  std::vector<uint32_t> indices(const AccessorView& v, const std::string& where) const {
    std::vector<uint32_t> out(v.count);
    for (std::size_t i = 0; i < v.count; ++i) {
      const unsigned char* p = v.base + i * v.stride;
      switch (v.component) {
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
          out[i] = p[0];
          break;
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
          uint16_t s;
          std::memcpy(&s, p, 2);
          out[i] = s;
          break;
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
          std::memcpy(&out[i], p, 4);
          break;
        default:
          fail_(where + ": index component type " + std::to_string(v.component) +
                " (indices are unsigned byte, short or int)");
      }
    }
    return out;
  }

 private:
  const tg::Model& m_;
  const Fail& fail_;
  const LoadLimits& lim_;
};

glm::mat4 node_matrix(const tg::Node& n, const Fail& fail, int index) {
  const std::string where = "node " + std::to_string(index);
  auto check = [&](const std::vector<double>& v, std::size_t len, const char* what) {
    if (!v.empty() && v.size() != len)
      fail(where + ": " + what + " has " + std::to_string(v.size()) + " numbers, not " +
           std::to_string(len));
    for (double d : v)
      if (!std::isfinite(d)) fail(where + ": " + what + " is not finite");
  };
  check(n.matrix, 16, "matrix");
  check(n.translation, 3, "translation");
  check(n.rotation, 4, "rotation");
  check(n.scale, 3, "scale");
  if (n.matrix.size() == 16) {
    glm::mat4 m;
    for (int i = 0; i < 16; ++i) glm::value_ptr(m)[i] = static_cast<float>(n.matrix[i]);
    return m;
  }
  glm::mat4 m(1.0f);
  if (n.translation.size() == 3)
    m = glm::translate(m, glm::vec3(n.translation[0], n.translation[1], n.translation[2]));
  if (n.rotation.size() == 4) {
    glm::quat q(static_cast<float>(n.rotation[3]), static_cast<float>(n.rotation[0]),
                static_cast<float>(n.rotation[1]), static_cast<float>(n.rotation[2]));
    const float len = glm::length(q);
    if (len > 0) m *= glm::mat4_cast(q / len);
  }
  if (n.scale.size() == 3) m = glm::scale(m, glm::vec3(n.scale[0], n.scale[1], n.scale[2]));
  return m;
}

// Normals transform by the cofactor matrix (det x inverse transpose): no division, so a
// degenerate node (scale 0) gives zero normals rather than NaN; they are renormalised afterwards.
glm::mat3 cofactor(const glm::mat3& m) {
  glm::mat3 c(glm::cross(m[1], m[2]), glm::cross(m[2], m[0]), glm::cross(m[0], m[1]));
  return c;
}

class Builder {
 public:
  Builder(const tg::Model& m, const Fail& fail, const LoadLimits& lim, LoadedScene* out)
      : m_(m), fail_(fail), lim_(lim), rd_(m, fail, lim), out_(out) {}

  void node(int index, const glm::mat4& parent, int depth, std::vector<char>* on_path) {
    if (index < 0 || static_cast<std::size_t>(index) >= m_.nodes.size())
      fail_("node " + std::to_string(index) + " does not exist (" +
            std::to_string(m_.nodes.size()) + " nodes)");
    if ((*on_path)[index]) fail_("node " + std::to_string(index) + " is its own ancestor (a cycle)");
    if (depth > lim_.max_node_depth) fail_("the node hierarchy is deeper than the limit");
    if (++visits_ > lim_.max_node_visits) fail_("the node graph is too large to walk");
    (*on_path)[index] = 1;
    const tg::Node& n = m_.nodes[index];
    const glm::mat4 world = parent * node_matrix(n, fail_, index);
    if (n.mesh >= 0) mesh(n.mesh, world);
    else if (n.mesh < -1) fail_("node " + std::to_string(index) + ": bad mesh index");
    if (n.camera >= 0) camera(n.camera, world);
    auto ext = n.extensions.find("KHR_lights_punctual");
    if (ext != n.extensions.end() && ext->second.IsObject() && ext->second.Has("light")) {
      const tg::Value& l = ext->second.Get("light");
      if (!l.IsNumber()) fail_("node " + std::to_string(index) + ": light index is not a number");
      light(l.GetNumberAsInt(), world);
    }
    for (int c : n.children) node(c, world, depth + 1, on_path);
    (*on_path)[index] = 0;
  }

  void mesh(int index, const glm::mat4& world) {
    if (static_cast<std::size_t>(index) >= m_.meshes.size())
      fail_("mesh " + std::to_string(index) + " does not exist");
    const tg::Mesh& mesh = m_.meshes[index];
    const glm::mat3 nm = cofactor(glm::mat3(world));
    for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
      const tg::Primitive& prim = mesh.primitives[p];
      const std::string where = "mesh " + std::to_string(index) + " primitive " + std::to_string(p);
      const int mode = prim.mode < 0 ? TINYGLTF_MODE_TRIANGLES : prim.mode;
      if (mode != TINYGLTF_MODE_TRIANGLES && mode != TINYGLTF_MODE_TRIANGLE_STRIP &&
          mode != TINYGLTF_MODE_TRIANGLE_FAN) {
        if (mode > TINYGLTF_MODE_TRIANGLE_FAN) fail_(where + ": unknown mode " + std::to_string(mode));
        note(where + ": points and lines are not drawn");
        continue;
      }
      auto pos_it = prim.attributes.find("POSITION");
      if (pos_it == prim.attributes.end()) fail_(where + " has no POSITION");
      const AccessorView pv = rd_.view(pos_it->second, (where + " POSITION").c_str(), 3);
      if (pv.component != TINYGLTF_COMPONENT_TYPE_FLOAT)
        fail_(where + ": POSITION is not float (KHR_mesh_quantization is not supported)");
      const std::size_t nv = pv.count;
      std::size_t total = 0;
      if (!add_ok(out_->vertices.size(), nv, &total) || total > lim_.max_vertices)
        fail_("more than " + std::to_string(lim_.max_vertices) + " vertices");
      std::vector<float> pos, nor, uv;
      rd_.floats(pv, where + " POSITION", &pos);
      auto nit = prim.attributes.find("NORMAL");
      if (nit != prim.attributes.end()) {
        const AccessorView v = rd_.view(nit->second, (where + " NORMAL").c_str(), 3);
        if (v.count != nv) fail_(where + ": NORMAL count differs from POSITION count");
        rd_.floats(v, where + " NORMAL", &nor);
      }
      auto tit = prim.attributes.find("TEXCOORD_0");
      if (tit != prim.attributes.end()) {
        const AccessorView v = rd_.view(tit->second, (where + " TEXCOORD_0").c_str(), 2);
        if (v.count != nv) fail_(where + ": TEXCOORD_0 count differs from POSITION count");
        rd_.floats(v, where + " TEXCOORD_0", &uv);
      }
      std::vector<uint32_t> idx;
      if (prim.indices >= 0) {
        const AccessorView iv = rd_.view(prim.indices, (where + " indices").c_str(), 1);
        idx = rd_.indices(iv, where + " indices");
        for (std::size_t i = 0; i < idx.size(); ++i)
          if (idx[i] >= nv)
            fail_(where + ": index " + std::to_string(idx[i]) + " at " + std::to_string(i) +
                  " is out of range (" + std::to_string(nv) + " vertices)");
      } else {
        idx.resize(nv);
        for (std::size_t i = 0; i < nv; ++i) idx[i] = static_cast<uint32_t>(i);
      }
      std::vector<uint32_t> tri = triangles(idx, mode);
      if (!add_ok(out_->indices.size(), tri.size(), &total) || total > lim_.max_indices)
        fail_("more than " + std::to_string(lim_.max_indices / 3) + " triangles");
      if (prim.material >= 0 && static_cast<std::size_t>(prim.material) >= m_.materials.size())
        fail_(where + ": material " + std::to_string(prim.material) + " does not exist");
      if (prim.material < -1) fail_(where + ": bad material index");
      if (!prim.targets.empty()) note(where + ": morph targets are drawn at rest");
      if (prim.attributes.count("JOINTS_0")) note(where + ": skinned meshes are drawn at rest");

      const uint32_t base = static_cast<uint32_t>(out_->vertices.size());
      out_->vertices.resize(base + nv);
      for (std::size_t i = 0; i < nv; ++i) {
        const glm::vec3 p(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]);
        if (!finite(p))
          fail_(where + ": POSITION " + std::to_string(i) + " is not finite (NaN or infinity)");
        const glm::vec3 w = glm::vec3(world * glm::vec4(p, 1.0f));
        if (!finite(w)) fail_(where + ": a position is not finite once placed by its node");
        MeshVertex& mv = out_->vertices[base + i];
        mv.pos[0] = w.x;
        mv.pos[1] = w.y;
        mv.pos[2] = w.z;
        glm::vec3 n(0.0f);
        if (!nor.empty()) n = nm * glm::vec3(nor[3 * i], nor[3 * i + 1], nor[3 * i + 2]);
        mv.normal[0] = n.x;
        mv.normal[1] = n.y;
        mv.normal[2] = n.z;
        mv.uv[0] = uv.empty() ? 0.0f : uv[2 * i];
        mv.uv[1] = uv.empty() ? 0.0f : uv[2 * i + 1];
      }
      // Missing or bad normals: area-weighted face normals of this primitive.
      bool need_normals = nor.empty();
      for (std::size_t i = 0; i < nv && !need_normals; ++i) {
        const float* n = out_->vertices[base + i].normal;
        need_normals = !(std::isfinite(n[0]) && std::isfinite(n[1]) && std::isfinite(n[2]));
      }
      if (need_normals) {
        if (!nor.empty()) note(where + ": NORMAL not finite; normals recomputed");
        for (std::size_t i = 0; i < nv; ++i)
          std::fill(out_->vertices[base + i].normal, out_->vertices[base + i].normal + 3, 0.0f);
        for (std::size_t t = 0; t + 2 < tri.size(); t += 3) {
          MeshVertex* v[3] = {&out_->vertices[base + tri[t]], &out_->vertices[base + tri[t + 1]],
                              &out_->vertices[base + tri[t + 2]]};
          const glm::vec3 a = glm::make_vec3(v[0]->pos), b = glm::make_vec3(v[1]->pos),
                          c = glm::make_vec3(v[2]->pos);
          const glm::vec3 fn = glm::cross(b - a, c - a);
          for (MeshVertex* x : v)
            for (int k = 0; k < 3; ++k) x->normal[k] += fn[k];
        }
      }
      LoadedPrimitive lp;
      lp.first_index = static_cast<uint32_t>(out_->indices.size());
      lp.index_count = static_cast<uint32_t>(tri.size());
      lp.material = prim.material;
      for (uint32_t& i : tri) i += base;
      out_->indices.insert(out_->indices.end(), tri.begin(), tri.end());
      if (lp.index_count) {
        if (out_->primitives.size() >= lim_.max_primitives)
          fail_("more than " + std::to_string(lim_.max_primitives) + " primitives");
        out_->primitives.push_back(lp);
      }
    }
  }

  static std::vector<uint32_t> triangles(const std::vector<uint32_t>& idx, int mode) {
    if (mode == TINYGLTF_MODE_TRIANGLES) {
      std::vector<uint32_t> t(idx.begin(), idx.begin() + idx.size() / 3 * 3);
      return t;
    }
    std::vector<uint32_t> t;
    if (idx.size() < 3) return t;
    t.reserve((idx.size() - 2) * 3);
    for (std::size_t i = 2; i < idx.size(); ++i) {
      if (mode == TINYGLTF_MODE_TRIANGLE_FAN)
        t.insert(t.end(), {idx[0], idx[i - 1], idx[i]});
      else if (i % 2 == 0)
        t.insert(t.end(), {idx[i - 2], idx[i - 1], idx[i]});
      else
        t.insert(t.end(), {idx[i - 1], idx[i - 2], idx[i]});
    }
    return t;
  }

  void camera(int index, const glm::mat4& world) {
    if (static_cast<std::size_t>(index) >= m_.cameras.size())
      fail_("camera " + std::to_string(index) + " does not exist");
    const tg::Camera& c = m_.cameras[index];
    if (c.type != "perspective") {
      note("camera " + std::to_string(index) + " is " + c.type + ": only perspective cameras are offered");
      return;
    }
    LoadedCamera lc;
    lc.name = c.name.empty() ? "camera " + std::to_string(index) : c.name;
    lc.eye = glm::vec3(world * glm::vec4(0, 0, 0, 1));
    lc.forward = glm::mat3(world) * glm::vec3(0, 0, -1);
    lc.up = glm::mat3(world) * glm::vec3(0, 1, 0);
    const float yfov = static_cast<float>(c.perspective.yfov);
    if (!finite(lc.eye) || !finite(lc.forward) || glm::length(lc.forward) <= 0 ||
        !(yfov > 0.01f && yfov < 3.0f)) {
      note(lc.name + ": degenerate placement or field of view; skipped");
      return;
    }
    lc.forward = glm::normalize(lc.forward);
    lc.yfov = yfov;
    out_->cameras.push_back(lc);
  }

  void light(int index, const glm::mat4& world) {
    if (index < 0 || static_cast<std::size_t>(index) >= m_.lights.size())
      fail_("light " + std::to_string(index) + " does not exist");
    if (out_->lights.size() >= kMaxLights) {
      note("more than " + std::to_string(kMaxLights) + " lights: the rest are not drawn");
      return;
    }
    const tg::Light& l = m_.lights[index];
    LoadedLight ll;
    if (l.type == "directional") ll.type = LightType::Directional;
    else if (l.type == "point") ll.type = LightType::Point;
    else if (l.type == "spot") ll.type = LightType::Spot;
    else fail_("light " + std::to_string(index) + ": unknown type '" + l.type + "'");
    if (l.color.size() == 3) ll.color = glm::vec3(l.color[0], l.color[1], l.color[2]);
    else if (!l.color.empty()) fail_("light " + std::to_string(index) + ": colour is not 3 numbers");
    ll.intensity = static_cast<float>(l.intensity);
    ll.range = static_cast<float>(l.range);
    ll.inner_cone = static_cast<float>(l.spot.innerConeAngle);
    ll.outer_cone = static_cast<float>(l.spot.outerConeAngle);
    ll.position = glm::vec3(world * glm::vec4(0, 0, 0, 1));
    ll.direction = glm::mat3(world) * glm::vec3(0, 0, -1);
    if (!finite(ll.color) || !std::isfinite(ll.intensity) || ll.intensity < 0 ||
        !std::isfinite(ll.range) || ll.range < 0 || !std::isfinite(ll.inner_cone) ||
        !std::isfinite(ll.outer_cone) || !finite(ll.position) || !finite(ll.direction) ||
        glm::length(ll.direction) <= 0)
      fail_("light " + std::to_string(index) + ": colour, intensity, range, cone or placement out of range");
    ll.direction = glm::normalize(ll.direction);
    ll.color = glm::max(ll.color, glm::vec3(0.0f));
    out_->lights.push_back(ll);
  }

  void note(const std::string& s) {
    if (std::find(out_->notes.begin(), out_->notes.end(), s) == out_->notes.end() &&
        out_->notes.size() < 32)
      out_->notes.push_back(s);
  }

 private:
  const tg::Model& m_;
  const Fail& fail_;
  const LoadLimits& lim_;
  Reader rd_;
  LoadedScene* out_;
  std::size_t visits_ = 0;
};

// After tinygltf refused a file: the first required extension this renderer lacks, if the JSON
// (a .gltf, or a .glb's first chunk) names one; tinygltf's own message for such files (a
// Draco-compressed mesh: "invalid bufferView") does not say why. Only on failure: a second parse.
std::string unsupported_required(const std::vector<uint8_t>& bytes) {
  const uint8_t* json = bytes.data();
  std::size_t len = bytes.size();
  if (len >= 20 && std::memcmp(json, "glTF", 4) == 0) {
    uint32_t chunk = 0;
    std::memcpy(&chunk, json + 12, 4);
    if (chunk > len - 20 || std::memcmp(json + 16, "JSON", 4) != 0) return {};
    json += 20;
    len = chunk;
  }
  const nlohmann::json j = nlohmann::json::parse(json, json + len, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return {};
  auto it = j.find("extensionsRequired");
  if (it == j.end() || !it->is_array()) return {};
  for (const auto& e : *it)
    if (e.is_string() && !kSupportedRequired.count(e.get<std::string>())) return e.get<std::string>();
  return {};
}

// The JSON's property types, for the properties this loader reads: tinygltf skips an optional
// property of the wrong type (a string for a number, an array for an object, -1 for an index) as
// if it were absent, and would draw a file the glTF schema rejects. Checked before tinygltf runs;
// "extras" is free-form and not entered, extensions only as far as being objects (their own
// properties are the extension's, read where used). Names whose type depends on where they stand
// ("target": a buffer view's number, an animation channel's object) are not checked. Returns ""
// or what is wrong, with its JSON path.
std::string schema_types(const nlohmann::json& j, const std::string& path, int depth) {
  using J = nlohmann::json;
  static const std::set<std::string> kStrings = {"name", "uri", "type", "alphaMode", "mimeType",
                                                  "version", "generator", "minVersion",
                                                  "interpolation", "path"};
  static const std::set<std::string> kUints = {
      "index", "texCoord", "bufferView", "byteOffset", "byteLength", "byteStride",
      "componentType", "count", "buffer", "mesh", "camera", "skin", "source",
      "sampler", "material", "indices", "mode", "scene", "magFilter", "minFilter", "wrapS",
      "wrapT", "light", "input", "output", "node"};
  static const std::set<std::string> kNumbers = {
      "metallicFactor", "roughnessFactor", "alphaCutoff", "strength", "yfov", "znear", "zfar",
      "aspectRatio", "xmag", "ymag", "intensity", "range", "innerConeAngle", "outerConeAngle",
      "emissiveStrength"};
  static const std::set<std::string> kObjects = {
      "pbrMetallicRoughness", "normalTexture", "occlusionTexture", "emissiveTexture",
      "baseColorTexture", "metallicRoughnessTexture", "attributes", "asset", "perspective",
      "orthographic", "spot", "extensions", "sparse"};
  static const std::set<std::string> kArrays = {
      "baseColorFactor", "emissiveFactor", "matrix", "rotation", "translation", "children",
      "nodes", "color", "min", "max", "weights", "extensionsUsed", "extensionsRequired",
      "accessors", "buffers", "bufferViews", "materials", "meshes", "scenes", "textures",
      "images", "samplers", "cameras", "primitives", "targets", "lights", "skins",
      "animations", "joints", "channels"};
  if (depth > 64) return path + ": nested too deeply";
  if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) {
      std::string e = schema_types(j[i], path + "[" + std::to_string(i) + "]", depth + 1);
      if (!e.empty()) return e;
    }
    return {};
  }
  if (!j.is_object()) return {};
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    const J& v = it.value();
    const std::string at = path + "." + k;
    if (k == "extras") continue;
    if (kStrings.count(k) && !v.is_string()) return at + " is not a string";
    if (kUints.count(k) && !v.is_number_unsigned()) return at + " is not an unsigned integer";
    if (kNumbers.count(k) && !v.is_number()) return at + " is not a number";
    if (kObjects.count(k) && !v.is_object()) return at + " is not an object";
    if (kArrays.count(k) && !v.is_array()) return at + " is not an array";
    if (k == "scale" && !v.is_number() && !v.is_array()) return at + " is not a number or array";
    if (k == "doubleSided" || k == "normalized") {
      if (!v.is_boolean()) return at + " is not a boolean";
    }
    if (k == "extensions")
      for (auto e = v.begin(); e != v.end(); ++e)
        if (!e.value().is_object()) return at + "." + e.key() + " is not an object";
    if (v.is_array() && (k == "baseColorFactor" || k == "emissiveFactor" || k == "matrix" ||
                         k == "rotation" || k == "translation" || k == "scale" || k == "color" ||
                         k == "min" || k == "max" || k == "weights"))
      for (const J& x : v)
        if (!x.is_number()) return at + " holds something that is not a number";
    // (The top level's "nodes" are the node objects; a scene's "nodes", indices.)
    if (v.is_array() && (k == "children" || (k == "nodes" && path != "$") || k == "joints"))
      for (const J& x : v)
        if (!x.is_number_unsigned()) return at + " holds something that is not a node index";
    // An extension's properties mean what that extension says (KHR_texture_transform's
    // "rotation" is a number, a node's an array): not checked by these names.
    if (k == "extensions") continue;
    if (v.is_object() || v.is_array()) {
      std::string e = schema_types(v, at, depth + 1);
      if (!e.empty()) return e;
    }
  }
  return {};
}

// The JSON of a .gltf, or of a .glb's first chunk; a discarded value when there is none.
nlohmann::json parse_json(const std::vector<uint8_t>& bytes) {
  const uint8_t* json = bytes.data();
  std::size_t len = bytes.size();
  if (len >= 4 && std::memcmp(json, "glTF", 4) == 0) {
    uint32_t chunk = 0;
    if (len < 20) return nlohmann::json::value_t::discarded;
    std::memcpy(&chunk, json + 12, 4);
    if (chunk > len - 20 || std::memcmp(json + 16, "JSON", 4) != 0)
      return nlohmann::json::value_t::discarded;
    json += 20;
    len = chunk;
  }
  return nlohmann::json::parse(json, json + len, nullptr, false);
}

float clamp01(double v) { return std::isfinite(v) ? static_cast<float>(std::clamp(v, 0.0, 1.0)) : 0.0f; }

void read_materials(const tg::Model& m, const Fail& fail, LoadedScene* out) {
  std::vector<int> use(m.textures.size(), -1);  // 1 sRGB, 0 linear
  auto tex = [&](int index, bool srgb, const std::string& where) {
    if (index < 0) return -1;
    if (static_cast<std::size_t>(index) >= m.textures.size())
      fail(where + ": texture " + std::to_string(index) + " does not exist");
    const tg::Texture& t = m.textures[index];
    if (t.source < 0 || static_cast<std::size_t>(t.source) >= m.images.size()) {
      out->notes.push_back(where + ": texture " + std::to_string(index) + " has no image; not drawn");
      return -1;
    }
    const tg::Image& img = m.images[t.source];
    if (img.image.empty() || img.width <= 0 || img.height <= 0 ||
        img.image.size() != static_cast<std::size_t>(img.width) * img.height * 4) {
      out->notes.push_back(where + ": image " + std::to_string(t.source) + " not loaded; not drawn");
      return -1;
    }
    if (use[index] >= 0 && use[index] != (srgb ? 1 : 0))
      out->notes.push_back("texture " + std::to_string(index) + " used as colour and as data");
    use[index] = srgb ? 1 : 0;
    return index;
  };
  out->materials.resize(m.materials.size());
  for (std::size_t i = 0; i < m.materials.size(); ++i) {
    const tg::Material& s = m.materials[i];
    const std::string where = "material " + std::to_string(i);
    LoadedMaterial& d = out->materials[i];
    const auto& pbr = s.pbrMetallicRoughness;
    if (pbr.baseColorFactor.size() == 4)
      d.base_color = glm::vec4(clamp01(pbr.baseColorFactor[0]), clamp01(pbr.baseColorFactor[1]),
                               clamp01(pbr.baseColorFactor[2]), clamp01(pbr.baseColorFactor[3]));
    else if (!pbr.baseColorFactor.empty())
      fail(where + ": baseColorFactor is not 4 numbers");
    d.metallic = clamp01(pbr.metallicFactor);
    d.roughness = clamp01(pbr.roughnessFactor);
    if (s.emissiveFactor.size() == 3)
      d.emissive = glm::vec3(clamp01(s.emissiveFactor[0]), clamp01(s.emissiveFactor[1]),
                             clamp01(s.emissiveFactor[2]));
    else if (!s.emissiveFactor.empty())
      fail(where + ": emissiveFactor is not 3 numbers");
    auto es = s.extensions.find("KHR_materials_emissive_strength");
    if (es != s.extensions.end() && es->second.IsObject() && es->second.Has("emissiveStrength")) {
      const tg::Value& v = es->second.Get("emissiveStrength");
      const double k = v.IsNumber() ? v.GetNumberAsDouble() : -1.0;
      if (!std::isfinite(k) || k < 0 || k > 1e6) fail(where + ": emissiveStrength out of range");
      d.emissive *= static_cast<float>(k);
    }
    d.normal_scale = std::isfinite(s.normalTexture.scale)
                         ? static_cast<float>(std::clamp(s.normalTexture.scale, -16.0, 16.0))
                         : 1.0f;
    if (s.alphaMode == "MASK") d.alpha_cutoff = clamp01(s.alphaCutoff);
    d.base_tex = tex(pbr.baseColorTexture.index, true, where);
    d.mr_tex = tex(pbr.metallicRoughnessTexture.index, false, where);
    d.normal_tex = tex(s.normalTexture.index, false, where);
    d.emissive_tex = tex(s.emissiveTexture.index, true, where);
    if (pbr.baseColorTexture.texCoord > 0 || s.normalTexture.texCoord > 0)
      out->notes.push_back(where + ": only TEXCOORD_0 is read");
  }
  out->textures.resize(m.textures.size());
  for (std::size_t i = 0; i < m.textures.size(); ++i) {
    if (use[i] < 0) continue;  // unused or unloadable: no copy kept
    const tg::Texture& t = m.textures[i];
    const tg::Image& img = m.images[t.source];
    LoadedTexture& d = out->textures[i];
    d.width = img.width;
    d.height = img.height;
    d.rgba = img.image;
    d.srgb = use[i] == 1;
    if (t.sampler >= 0 && static_cast<std::size_t>(t.sampler) < m.samplers.size()) {
      const tg::Sampler& sm = m.samplers[t.sampler];
      d.repeat_s = sm.wrapS != TINYGLTF_TEXTURE_WRAP_CLAMP_TO_EDGE;
      d.repeat_t = sm.wrapT != TINYGLTF_TEXTURE_WRAP_CLAMP_TO_EDGE;
      d.mirror_s = sm.wrapS == TINYGLTF_TEXTURE_WRAP_MIRRORED_REPEAT;
      d.mirror_t = sm.wrapT == TINYGLTF_TEXTURE_WRAP_MIRRORED_REPEAT;
      d.nearest = sm.magFilter == TINYGLTF_TEXTURE_FILTER_NEAREST;
    }
  }
}

// Scene units: the bounding sphere's radius kSceneRadius, centred on x = z = 0, the lowest point
// on y = 0 (the teapots' floor), so the camera's limits (eye above y = 0) hold.
void normalise(const Fail& fail, LoadedScene* s) {
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (uint32_t i : s->indices) {
    const glm::vec3 p = glm::make_vec3(s->vertices[i].pos);
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  const glm::vec3 ext = hi - lo;
  const float r = 0.5f * glm::length(ext);
  if (!std::isfinite(r) || !(r > 0.0f)) fail("the drawn geometry has no extent (or an infinite one)");
  const float k = kSceneRadius / r;
  const glm::vec3 shift(-0.5f * (lo.x + hi.x), -lo.y, -0.5f * (lo.z + hi.z));
  auto place = [&](const glm::vec3& p) { return (p + shift) * k; };
  for (MeshVertex& v : s->vertices) {
    const glm::vec3 p = place(glm::make_vec3(v.pos));
    v.pos[0] = p.x;
    v.pos[1] = p.y;
    v.pos[2] = p.z;
    glm::vec3 n = glm::make_vec3(v.normal);
    const float len = glm::length(n);
    n = len > 0 && std::isfinite(len) ? n / len : glm::vec3(0, 1, 0);
    v.normal[0] = n.x;
    v.normal[1] = n.y;
    v.normal[2] = n.z;
    if (!std::isfinite(v.uv[0]) || !std::isfinite(v.uv[1])) v.uv[0] = v.uv[1] = 0.0f;
  }
  for (LoadedCamera& c : s->cameras) c.eye = place(c.eye);
  for (LoadedLight& l : s->lights) {
    l.position = place(l.position);
    // Inverse-square falloff over distances scaled by k: the same irradiance needs k^2.
    if (l.type != LightType::Directional) l.intensity *= k * k;
    l.range *= k;
  }
  s->lo = place(lo);
  s->hi = place(hi);
  s->scale = k;
}

}  // namespace

LoadedScene load_gltf_memory(const std::vector<uint8_t>& bytes, const std::string& name,
                             const std::string& base_dir, const LoadLimits& limits) {
  const Fail fail{name};
  if (bytes.empty()) fail("empty file");
  if (bytes.size() > limits.max_file_bytes || bytes.size() > 0xffffffffu) fail("file too large");
  {
    const nlohmann::json j = parse_json(bytes);
    if (j.is_discarded()) fail("not glTF: the JSON (or a .glb's JSON chunk) does not parse");
    if (!j.is_object()) fail("not glTF: the JSON is not an object");
    const std::string e = schema_types(j, "$", 0);
    if (!e.empty()) fail("wrong type: " + e);
  }
  tg::Model model;
  std::string err, warn;
  bool ok = false;
  {
    tg::TinyGLTF loader;
    ImageBudget budget{&limits};
    loader.SetImageLoader(load_image, &budget);
    const bool glb = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
    try {
      if (glb)
        ok = loader.LoadBinaryFromMemory(&model, &err, &warn, bytes.data(),
                                         static_cast<unsigned>(bytes.size()), base_dir);
      else
        ok = loader.LoadASCIIFromString(&model, &err, &warn,
                                        reinterpret_cast<const char*>(bytes.data()),
                                        static_cast<unsigned>(bytes.size()), base_dir);
    } catch (const std::exception& e) {
      err = e.what();
      ok = false;
    }
  }
  auto first_line = [](std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    const auto nl = s.find('\n');
    if (nl != std::string::npos) s = s.substr(0, nl) + " (...)";
    return s;
  };
  if (!ok) {
    const std::string ext = unsupported_required(bytes);
    if (!ext.empty()) fail("requires extension " + ext + ", which this renderer does not support");
  }
  if (!ok) fail("not a glTF 2.0 file tinygltf can read: " + (err.empty() ? std::string("(no reason given)") : first_line(err)));
  if (model.asset.version.empty() || model.asset.version[0] != '2')
    fail("asset version '" + model.asset.version + "' (glTF 2.0 is read)");
  for (const std::string& e : model.extensionsRequired)
    if (!kSupportedRequired.count(e))
      fail("requires extension " + e + ", which this renderer does not support");
  for (const tg::Buffer& b : model.buffers)
    if (b.data.empty()) fail("a buffer is missing or could not be read" + (b.uri.empty() ? std::string() : " ('" + b.uri + "')"));

  LoadedScene out;
  out.path = name;
  if (!warn.empty()) out.notes.push_back("tinygltf: " + first_line(warn));
  Builder build(model, fail, limits, &out);
  std::vector<int> roots;
  if (!model.scenes.empty()) {
    int sc = model.defaultScene >= 0 ? model.defaultScene : 0;
    if (static_cast<std::size_t>(sc) >= model.scenes.size())
      fail("default scene " + std::to_string(sc) + " does not exist");
    roots = model.scenes[sc].nodes;
  } else {
    // No scene: every node nobody lists as a child (the spec leaves this to the application).
    std::vector<char> child(model.nodes.size(), 0);
    for (const tg::Node& n : model.nodes)
      for (int c : n.children)
        if (c >= 0 && static_cast<std::size_t>(c) < child.size()) child[c] = 1;
    for (std::size_t i = 0; i < model.nodes.size(); ++i)
      if (!child[i]) roots.push_back(static_cast<int>(i));
    out.notes.push_back("no scene: the root nodes are drawn");
  }
  std::vector<char> on_path(model.nodes.size(), 0);
  for (int r : roots) build.node(r, glm::mat4(1.0f), 0, &on_path);
  if (out.indices.empty()) fail("no triangles to draw");
  read_materials(model, fail, &out);
  normalise(fail, &out);
  return out;
}

LoadedScene load_gltf(const std::string& path, const LoadLimits& limits) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw SceneLoadError(path + ": cannot open");
  f.seekg(0, std::ios::end);
  const std::streamoff size = f.tellg();
  if (size < 0) throw SceneLoadError(path + ": cannot read");
  if (static_cast<std::uint64_t>(size) > limits.max_file_bytes)
    throw SceneLoadError(path + ": file too large");
  f.seekg(0);
  std::vector<uint8_t> bytes(static_cast<std::size_t>(size));
  if (size > 0 && !f.read(reinterpret_cast<char*>(bytes.data()), size))
    throw SceneLoadError(path + ": cannot read");
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? std::string(".") : path.substr(0, slash);
  return load_gltf_memory(bytes, path, dir, limits);
}

}  // namespace demo
