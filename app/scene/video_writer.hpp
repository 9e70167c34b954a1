// `--record FILE.mp4`: the recorded frames encoded as H.264 in an MP4 through FFmpeg's libraries
// (libavformat, libavcodec, libswscale: Debian's libavcodec-dev, libavformat-dev,
// libswscale-dev). Built only where they are found (SCANDOF_WITH_FFMPEG); elsewhere
// --record FILE.mp4 is refused with that reason and --record DIR (PNG frames) works.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace demo {

class VideoWriter {
 public:
  // Opens `path` for `width` x `height` frames at `fps` (a constant frame rate, as a camera path
  // steps). Throws std::runtime_error naming the file (no encoder, cannot write, odd sizes are
  // rounded up by padding, so any size works).
  VideoWriter(const std::string& path, int width, int height, double fps);
  ~VideoWriter();  // finishes the file (flushes the encoder, writes the trailer) if not yet done
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;

  // One frame, RGBA8 rows bottom-up (GL's read-back order), width x height of the constructor.
  void add(const uint8_t* rgba_bottom_up);
  // Flushes the encoder and writes the trailer; throws naming the file on a failed write.
  void finish();
  long long frames() const { return frames_; }
  static bool available();  // built with FFmpeg

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  long long frames_ = 0;
};

}  // namespace demo
