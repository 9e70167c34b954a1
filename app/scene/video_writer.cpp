#include "scene/video_writer.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#if SCANDOF_WITH_FFMPEG
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}
#endif

namespace demo {

#if SCANDOF_WITH_FFMPEG

struct VideoWriter::Impl {
  std::string path;
  int w = 0, h = 0;
  AVFormatContext* fmt = nullptr;
  AVCodecContext* enc = nullptr;
  AVStream* st = nullptr;
  AVFrame* frame = nullptr;
  AVPacket* pkt = nullptr;
  SwsContext* sws = nullptr;
  bool finished = false;

  [[noreturn]] void fail(const std::string& what, int err = 0) const {
    char buf[AV_ERROR_MAX_STRING_SIZE] = "";
    if (err) av_strerror(err, buf, sizeof buf);
    throw std::runtime_error(path + ": " + what + (err ? std::string(" (") + buf + ")" : ""));
  }
  // Sends a frame (nullptr: flush) and writes every packet the encoder has ready.
  void send(AVFrame* f) {
    int r = avcodec_send_frame(enc, f);
    if (r < 0) fail("video encoding failed", r);
    for (;;) {
      r = avcodec_receive_packet(enc, pkt);
      if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) break;
      if (r < 0) fail("video encoding failed", r);
      av_packet_rescale_ts(pkt, enc->time_base, st->time_base);
      pkt->stream_index = st->index;
      r = av_interleaved_write_frame(fmt, pkt);
      if (r < 0) fail("cannot write", r);
    }
  }
  ~Impl() {
    sws_freeContext(sws);
    av_frame_free(&frame);
    av_packet_free(&pkt);
    avcodec_free_context(&enc);
    if (fmt) {
      if (fmt->pb) avio_closep(&fmt->pb);
      avformat_free_context(fmt);
    }
  }
};

bool VideoWriter::available() { return true; }

VideoWriter::VideoWriter(const std::string& path, int width, int height, double fps)
    : impl_(std::make_unique<Impl>()) {
  Impl& v = *impl_;
  v.path = path;
  v.w = width;
  v.h = height;
  if (width < 1 || height < 1 || !(fps > 0)) v.fail("bad video size or frame rate");
  int r = avformat_alloc_output_context2(&v.fmt, nullptr, nullptr, path.c_str());
  if (r < 0 || !v.fmt) v.fail("no video container for this file name", r);
  // H.264 (libx264 in Debian's libavcodec); MPEG-4 part 2 where it is missing.
  const AVCodec* codec = avcodec_find_encoder(AV_CODEC_ID_H264);
  if (!codec) codec = avcodec_find_encoder(AV_CODEC_ID_MPEG4);
  if (!codec) v.fail("no H.264 or MPEG-4 encoder in this FFmpeg");
  v.enc = avcodec_alloc_context3(codec);
  // 4:2:0 needs even sizes: an odd frame is scaled to the next even size (one pixel).
  v.enc->width = (width + 1) & ~1;
  v.enc->height = (height + 1) & ~1;
  v.enc->pix_fmt = AV_PIX_FMT_YUV420P;
  v.enc->framerate = av_d2q(fps, 100000);
  v.enc->time_base = av_inv_q(v.enc->framerate);
  v.enc->gop_size = 12;
  if (v.fmt->oformat->flags & AVFMT_GLOBALHEADER) v.enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  if (codec->id == AV_CODEC_ID_H264) av_opt_set(v.enc->priv_data, "crf", "16", 0);
  r = avcodec_open2(v.enc, codec, nullptr);
  if (r < 0) v.fail("cannot open the video encoder", r);
  v.st = avformat_new_stream(v.fmt, nullptr);
  if (!v.st) v.fail("cannot add a video stream");
  avcodec_parameters_from_context(v.st->codecpar, v.enc);
  v.st->time_base = v.enc->time_base;
  if (!(v.fmt->oformat->flags & AVFMT_NOFILE)) {
    r = avio_open(&v.fmt->pb, path.c_str(), AVIO_FLAG_WRITE);
    if (r < 0) v.fail("cannot write", r);
  }
  r = avformat_write_header(v.fmt, nullptr);
  if (r < 0) v.fail("cannot write", r);
  v.frame = av_frame_alloc();
  v.pkt = av_packet_alloc();
  v.frame->format = v.enc->pix_fmt;
  v.frame->width = v.enc->width;
  v.frame->height = v.enc->height;
  r = av_frame_get_buffer(v.frame, 0);
  if (r < 0) v.fail("out of memory for a video frame", r);
  v.sws = sws_getContext(width, height, AV_PIX_FMT_RGBA, v.enc->width, v.enc->height,
                         AV_PIX_FMT_YUV420P, SWS_BICUBIC, nullptr, nullptr, nullptr);
  if (!v.sws) v.fail("no RGBA -> YUV 4:2:0 conversion");
}

VideoWriter::~VideoWriter() {
  if (impl_ && !impl_->finished) {
    try {
      finish();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "scandof: error: %s\n", e.what());
    }
  }
}

void VideoWriter::add(const uint8_t* rgba_bottom_up) {
  Impl& v = *impl_;
  if (v.finished) v.fail("a frame after the end");
  const int r = av_frame_make_writable(v.frame);
  if (r < 0) v.fail("out of memory for a video frame", r);
  // GL's rows run bottom-up: start at the last row and step backwards.
  const uint8_t* src[1] = {rgba_bottom_up + static_cast<std::size_t>(v.h - 1) * v.w * 4};
  const int stride[1] = {-4 * v.w};
  sws_scale(v.sws, src, stride, 0, v.h, v.frame->data, v.frame->linesize);
  v.frame->pts = frames_++;
  v.send(v.frame);
}

void VideoWriter::finish() {
  Impl& v = *impl_;
  if (v.finished) return;
  v.finished = true;
  v.send(nullptr);
  int r = av_write_trailer(v.fmt);
  if (r < 0) v.fail("cannot write", r);
  if (v.fmt->pb) {
    avio_flush(v.fmt->pb);
    r = v.fmt->pb->error;
    if (r < 0) v.fail("cannot write", r);
    r = avio_closep(&v.fmt->pb);
    if (r < 0) v.fail("cannot write", r);
  }
}

#else  // built without FFmpeg

struct VideoWriter::Impl {};
bool VideoWriter::available() { return false; }
VideoWriter::VideoWriter(const std::string& path, int, int, double) {
  throw std::runtime_error(path + ": built without FFmpeg's libraries (libavcodec-dev, "
                                  "libavformat-dev, libswscale-dev): record PNG frames into a "
                                  "folder instead (--record DIR)");
}
VideoWriter::~VideoWriter() = default;
void VideoWriter::add(const uint8_t*) {}
void VideoWriter::finish() {}

#endif

}  // namespace demo
