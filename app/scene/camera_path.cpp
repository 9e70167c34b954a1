#include "scene/camera_path.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace demo {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  throw std::runtime_error(name + ": " + what);
}

glm::vec3 vec3_of(const json& j, const std::string& name, const std::string& where) {
  if (!j.is_array() || j.size() != 3) fail(name, where + " is not an array of 3 numbers");
  glm::vec3 v;
  for (int i = 0; i < 3; ++i) {
    if (!j[i].is_number()) fail(name, where + " is not an array of 3 numbers");
    v[i] = j[i].get<float>();
    if (!std::isfinite(v[i])) fail(name, where + " is not finite");
  }
  return v;
}

float number_of(const json& k, const char* key, const std::string& name, const std::string& where) {
  auto it = k.find(key);
  if (it == k.end() || !it->is_number()) fail(name, where + "." + key + " is missing or not a number");
  const double v = it->get<double>();
  if (!std::isfinite(v)) fail(name, where + "." + key + " is not finite");
  return static_cast<float>(v);
}

glm::vec3 catmull_rom(const glm::vec3& p0, const glm::vec3& p1, const glm::vec3& p2,
                      const glm::vec3& p3, float s) {
  const float s2 = s * s, s3 = s2 * s;
  return 0.5f * ((2.0f * p1) + (-p0 + p2) * s + (2.0f * p0 - 5.0f * p1 + 4.0f * p2 - p3) * s2 +
                 (-p0 + 3.0f * p1 - 3.0f * p2 + p3) * s3);
}

}  // namespace

long long CameraPath::frames() const {
  return static_cast<long long>(std::floor(duration() * fps + 1e-9)) + 1;
}

CameraKey CameraPath::at(double t) const {
  if (keys.empty()) return CameraKey{};
  if (keys.size() == 1 || t <= keys.front().t) {
    CameraKey k = keys.front();
    k.t = t;
    return k;
  }
  if (t >= keys.back().t) {
    CameraKey k = keys.back();
    k.t = t;
    return k;
  }
  // The segment [i, i + 1] holding t.
  std::size_t i = 0;
  while (i + 2 < keys.size() && keys[i + 1].t <= t) ++i;
  const CameraKey &a = keys[i], &b = keys[i + 1];
  const float s = static_cast<float>((t - a.t) / (b.t - a.t));
  const CameraKey& before = i > 0 ? keys[i - 1] : a;
  const CameraKey& after = i + 2 < keys.size() ? keys[i + 2] : b;
  // One-sided ends: a phantom key mirrored through the end (p0 = 2 p1 - p2) keeps the curve
  // from overshooting there.
  auto pick = [&](const glm::vec3 CameraKey::*m) {
    const glm::vec3 p1 = a.*m, p2 = b.*m;
    const glm::vec3 p0 = i > 0 ? before.*m : 2.0f * p1 - p2;
    const glm::vec3 p3 = i + 2 < keys.size() ? after.*m : 2.0f * p2 - p1;
    return catmull_rom(p0, p1, p2, p3, s);
  };
  CameraKey k;
  k.t = t;
  k.eye = pick(&CameraKey::eye);
  k.target = pick(&CameraKey::target);
  const float da = 1.0f / a.focus, db = 1.0f / b.focus;
  k.focus = 1.0f / (da + (db - da) * s);
  k.aperture = a.aperture + (b.aperture - a.aperture) * s;
  return k;
}

CameraPath parse_camera_path(const std::string& text, const std::string& name) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) fail(name, "not JSON");
  if (!j.is_object()) fail(name, "not a JSON object");
  CameraPath p;
  if (auto it = j.find("fps"); it != j.end()) {
    if (!it->is_number()) fail(name, "fps is not a number");
    p.fps = it->get<double>();
  }
  if (!std::isfinite(p.fps) || p.fps <= 0 || p.fps > 1000) fail(name, "fps must be in (0, 1000]");
  auto keys = j.find("keys");
  if (keys == j.end() || !keys->is_array()) fail(name, "no \"keys\" array");
  if (keys->empty()) fail(name, "no keys");
  if (keys->size() > 100000) fail(name, "more than 100000 keys");
  for (std::size_t i = 0; i < keys->size(); ++i) {
    const json& k = (*keys)[i];
    const std::string where = "keys[" + std::to_string(i) + "]";
    if (!k.is_object()) fail(name, where + " is not an object");
    CameraKey c;
    c.t = number_of(k, "t", name, where);
    if (!k.contains("eye") || !k.contains("target")) fail(name, where + " needs eye and target");
    c.eye = vec3_of(k["eye"], name, where + ".eye");
    c.target = vec3_of(k["target"], name, where + ".target");
    c.focus = number_of(k, "focus", name, where);
    c.aperture = number_of(k, "aperture", name, where);
    if (!(c.focus > 0)) fail(name, where + ".focus must be > 0");
    if (c.aperture < 0) fail(name, where + ".aperture must be >= 0");
    if (glm::length(c.eye - c.target) <= 1e-6f) fail(name, where + ": eye and target coincide");
    if (c.t < 0) fail(name, where + ".t is negative");
    if (!p.keys.empty() && !(c.t > p.keys.back().t))
      fail(name, where + ".t is not after the key before it");
    p.keys.push_back(c);
  }
  return p;
}

CameraPath load_camera_path(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) fail(path, "cannot open");
  std::stringstream ss;
  ss << f.rdbuf();
  if (f.bad()) fail(path, "cannot read");
  return parse_camera_path(ss.str(), path);
}

std::string camera_path_json(const CameraPath& p) {
  json j;
  j["fps"] = p.fps;
  j["keys"] = json::array();
  for (const CameraKey& k : p.keys)
    j["keys"].push_back({{"t", k.t},
                         {"eye", {k.eye.x, k.eye.y, k.eye.z}},
                         {"target", {k.target.x, k.target.y, k.target.z}},
                         {"focus", k.focus},
                         {"aperture", k.aperture}});
  return j.dump(1) + "\n";
}

void save_camera_path(const CameraPath& p, const std::string& path) {
  const std::string text = camera_path_json(p);
  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  const bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const bool closed = f && std::fclose(f) == 0;
  if (!ok || !closed || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    fail(path, "cannot write the camera path");
  }
}

}  // namespace demo
