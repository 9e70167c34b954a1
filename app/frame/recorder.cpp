#include "frame/recorder.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "passes/image_io.hpp"

namespace demo {

bool records_video(const std::string& target) {
  return target.size() > 4 && target.compare(target.size() - 4, 4, ".mp4") == 0;
}

void Recorder::open(const Settings& s) {
  if (!s.camera_path.empty()) load_path(s.camera_path);  // a bad path file stops here
  if (!s.record_dir.empty() && !records_video(s.record_dir)) {
    std::error_code ec;
    std::filesystem::create_directories(s.record_dir, ec);
    if (ec) throw std::runtime_error("--record " + s.record_dir + ": " + ec.message());
  }
}

void Recorder::load_path(const std::string& file) {
  path_ = load_camera_path(file);
  step_ = 0;
  std::fprintf(stderr, "[scandof] camera path %s: %zu keys, %.3g s at %.3g fps (%lld frames)\n",
               file.c_str(), path_.keys.size(), path_.duration(), path_.fps,
               path_.frames());
}

float Recorder::follow(Camera* cam, Settings* s) {
  const CameraKey k = path_.at(static_cast<double>(step_) / path_.fps);
  ++step_;
  // The orbit camera through the key's eye and target (eye = target + distance * direction).
  const glm::vec3 d = k.eye - k.target;
  cam->target = k.target;
  cam->distance = glm::length(d);
  cam->pitch = std::asin(std::clamp(d.y / cam->distance, -1.0f, 1.0f));
  cam->yaw = std::atan2(d.x, d.z);
  s->focus_distance = k.focus;
  s->aperture = k.aperture;
  return static_cast<float>(1.0 / path_.fps);
}

void Recorder::record(const FrameTargets& t, const Settings& s, long long index) {
  if (records_video(s.record_dir)) {
    const int w = t.width(), h = t.height();
    if (!video_)
      video_ = std::make_unique<VideoWriter>(s.record_dir, w, h,
                                             playing() ? path_.fps : 60.0);
    if (w != video_width_ || h != video_height_) {
      if (video_->frames() > 0)
        throw std::runtime_error(s.record_dir + ": the frame size changed while recording");
      video_width_ = w;
      video_height_ = h;
    }
    video_->add(t.read_rgba(t.display()).data());
    ++recorded_;
    return;
  }
  char name[32];
  std::snprintf(name, sizeof name, "/frame_%05lld.png", index);
  const std::vector<uint8_t> px = t.read_rgba(t.display());
  const std::string path = s.record_dir + name;
  write_png_bottom_up(path, t.width(), t.height(), px.data());  // a failed write throws naming it
  std::fprintf(stderr, "[scandof] screenshot written: %s (%dx%d)\n", path.c_str(), t.width(),
               t.height());
  ++recorded_;
}

std::string Recorder::add_path_key(const Camera& cam, const Settings& s) const {
  if (s.record_path_file.empty()) return "K records a camera path: start with --record-path FILE";
  CameraPath p;
  try {
    p = load_camera_path(s.record_path_file);
  } catch (const std::exception&) {
    p = CameraPath{};  // a new file (or one that is not a path: replaced)
  }
  CameraKey k;
  k.t = p.keys.empty() ? 0.0 : p.keys.back().t + 2.0;
  k.eye = cam.eye();
  k.target = cam.target;
  k.focus = s.focus_distance;
  k.aperture = s.aperture;
  p.keys.push_back(k);
  try {
    save_camera_path(p, s.record_path_file);
  } catch (const std::exception& e) {
    return e.what();
  }
  char buf[256];
  std::snprintf(buf, sizeof buf, "Camera key %zu at %.1f s added to %s", p.keys.size(), k.t,
                s.record_path_file.c_str());
  return buf;
}

}  // namespace demo
