// A camera path played frame by frame (--camera-path FILE), the frames written by --record
// (DIR/frame_NNNNN.png or FILE.mp4) and the window's K key that adds the current view to a path
// (--record-path FILE). App drives it: follow() before the frame, record() after it.
#pragma once

#include <memory>
#include <string>

#include "core/camera.hpp"
#include "core/settings.hpp"
#include "passes/frame_targets.hpp"
#include "scene/camera_path.hpp"
#include "scene/video_writer.hpp"

namespace demo {

// --record's target names an MP4 file (encoded by FFmpeg) rather than a folder of PNGs.
bool records_video(const std::string& target);

class Recorder {
 public:
  // The path file and the recording target of `s` (empty: none); throws naming a path file that
  // cannot be read or a folder that cannot be made.
  void open(const Settings& s);
  // Playing a camera path: the step the next frame shows (frame n: time n / fps).
  bool playing() const { return !path_.keys.empty(); }
  long long step() const { return step_; }
  // The step's view into `cam` and `s` (focus, aperture); returns the step's time, 1 / fps.
  float follow(Camera* cam, Settings* s);
  // Writes the display image of `t` as the next recorded frame (`index`: its number).
  void record(const FrameTargets& t, const Settings& s, long long index);
  long long recorded() const { return recorded_; }
  // The current view as the path file's next key, written at once; returns what to tell (the
  // key's number and time, or why it was not written).
  std::string add_path_key(const Camera& cam, const Settings& s) const;

 private:
  void load_path(const std::string& file);  // throws naming the file
  CameraPath path_;
  long long step_ = 0, recorded_ = 0;
  std::unique_ptr<VideoWriter> video_;  // --record FILE.mp4: opened at the first frame
  int video_width_ = 0, video_height_ = 0;
};

}  // namespace demo
