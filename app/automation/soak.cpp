#include "automation/soak.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "automation/faults.hpp"
#include "diagnostics/frame_checks.hpp"
#include "frame/app.hpp"
#include "scandof/util/rng.hpp"

namespace demo {

namespace {
// Past this many pixels a CPU-gold DoF frame (1-2 s at 1080p) is replaced by gather/box for the
// rest of its switch: a 10,000-frame 1080p soak would otherwise spend most of its time there.
constexpr long long kCpuDofMaxPixels = 640LL * 360;
constexpr int kMinimisedPasses = 5;  // loop passes a minimise fault keeps the frame at 0x0
constexpr int kHugeSide = 65536;     // past every GL implementation's texture size
constexpr int kMsaa[3] = {1, 2, 4};

// The folder of `path` ("." when it has none).
std::string folder_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string mib(long long bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / 1048576.0);
  return buf;
}
}  // namespace

Soak::Soak(const Options& o, bool headless) : o_(o), headless_(headless) {
  for (Fault f : o_.soak.faults)
    if (f == Fault::NoGlCompute) arm_fault_always(f);
  for (long long frame : o_.soak.interop_fault_frames) arm_fault_at(Fault::InteropRegister, frame);
  if (!on() || o_.report.empty()) return;
  const std::string dir = folder_of(o_.report);
  if (access(dir.c_str(), W_OK) != 0)
    throw std::runtime_error("cannot write " + o_.report + ": its folder " + dir +
                             " is missing or not writable (checked before the soak starts)");
}

void Soak::start(App& app) {
  base_ = app.settings();
  base_w_ = target_w_ = asked_w_ = app.width();
  base_h_ = target_h_ = asked_h_ = app.height();
  rng_state_ = o_.soak.seed;
  t0_ = std::chrono::steady_clock::now();
  report_.switch_every = o_.soak.switch_every;
  report_.resize_every = o_.soak.resize_every;
  report_.vary = soak_vary_names(o_.soak.vary);
  report_.seed = o_.soak.seed;
  std::fprintf(stderr,
               "[soak] start: %dx%d, %s%s, switch every %d frames (varying %s), resize every %d "
               "(seed %llu)\n",
               base_w_, base_h_,
               o_.soak.frames > 0 ? (std::to_string(o_.soak.frames) + " frames").c_str() : "",
               o_.soak.seconds > 0 ? (" " + std::to_string(o_.soak.seconds) + " s").c_str() : "",
               o_.soak.switch_every, report_.vary.c_str(), o_.soak.resize_every,
               static_cast<unsigned long long>(o_.soak.seed));
}

double Soak::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

bool Soak::done() const {
  if (o_.soak.frames > 0 && report_.frames >= o_.soak.frames) return true;
  return o_.soak.seconds > 0 && elapsed_s() >= o_.soak.seconds;
}

std::string Soak::config_label(const App& app) const {
  const Settings& s = app.settings();
  std::string l = to_string(s.backend);
  l += "/" + std::string(scandof::to_string(s.method)) + "/" + scandof::to_string(s.variant) + "/" +
       scandof::dof::to_string(s.dof_method) + "-" + scandof::dof::to_string(s.dof_shape) + "/" +
       to_string(s.view) + "/msaa" + std::to_string(s.msaa) + "/" + to_string(s.pipeline) + "/" +
       scandof::to_string(s.format);
  return l;
}

void Soak::event(const std::string& what, const std::string& message, bool recovered) {
  report_.events.push_back({what, report_.frames, message, recovered});
  if (!recovered) failed_ = true;
}

// ---- One pass --------------------------------------------------------------------------------------

SoakStep Soak::before_pass(App& app) {
  SoakStep step;
  huge_this_pass_ = false;
  if (minimised_left_ > 0) {
    if (--minimised_left_ > 0) {
      step.minimised = true;
      return step;
    }
    // Back from 0x0: the size the frame had before.
    step.window = WindowChange{WindowChange::Restore};
    std::fprintf(stderr, "[soak] minimise: restored to %dx%d after %d passes without a frame\n",
                 target_w_, target_h_, kMinimisedPasses);
    event(to_string(Fault::Minimise),
          "0x0 for " + std::to_string(kMinimisedPasses) + " passes (no frame rendered), then " +
              std::to_string(target_w_) + "x" + std::to_string(target_h_) + " again",
          true);
  }
  const long long f = report_.frames;
  const int n = o_.soak.switch_every, m = o_.soak.resize_every;
  if (f % n == 0 && f / n != switch_no_) switch_to(app, static_cast<int>(f / n));
  if (f > 0 && f % m == 0 && !canonical_ && f != last_resize_frame_ &&
      ((o_.soak.vary & kVarySize) || next_fault_is_resize_kind())) {
    last_resize_frame_ = f;
    resize_event(app, &step);
  }
  if (minimised_left_ > 0) {
    step.minimised = true;
    step.window = WindowChange{WindowChange::Iconify};
    return step;
  }
  step.past_window = huge_this_pass_;
  step.width = huge_this_pass_ ? kHugeSide : target_w_;
  step.height = huge_this_pass_ ? kHugeSide : target_h_;
  if (!headless_ && !huge_this_pass_ && (target_w_ != asked_w_ || target_h_ != asked_h_)) {
    step.window = WindowChange{WindowChange::Resize, target_w_, target_h_};
    asked_w_ = target_w_;
    asked_h_ = target_h_;
  }
  if ((o_.soak.vary & kVaryExtras) && switch_no_ % 20 == 13 && f % n == 0) {
    step.req.run_primitives = true;  // the Primitives window's Run button
    ++report_.primitive_runs;
  }
  return step;
}

bool Soak::next_fault_is_reference_cancel() const {
  return next_fault_ < o_.soak.faults.size() &&
         o_.soak.faults[next_fault_] == Fault::ReferenceCancel;
}

bool Soak::next_fault_is_resize_kind() const {
  for (std::size_t i = next_fault_; i < o_.soak.faults.size(); ++i) {
    if (o_.soak.faults[i] == Fault::NoGlCompute) continue;  // armed at start, skipped here
    return o_.soak.faults[i] != Fault::ReferenceCancel;
  }
  return false;
}

void Soak::switch_to(App& app, int k) {
  switch_no_ = k;
  ++report_.switches;
  canonical_ = k % 4 == 2;
  capped_this_switch_ = false;
  Settings s = base_;
  if (canonical_) {
    target_w_ = base_w_;
    target_h_ = base_h_;
  } else if (k > 0) {
    const int j = non_canonical_++;
    const std::vector<SatBackend>& b = o_.soak.backends;
    const unsigned v = o_.soak.vary;
    if (v & kVaryBackend) s.backend = b[static_cast<std::size_t>(j) % b.size()];
    if (v & kVarySat) {
      s.method = static_cast<scandof::SatMethod>(j % scandof::kNumSatMethods);
      s.variant = static_cast<scandof::ScanAlgorithm>(j % scandof::kNumScanAlgorithms);
      s.format = (j / 2) % 2 ? scandof::SatFormat::F32 : scandof::SatFormat::U32;
    }
    if (v & kVaryDof) {
      s.dof_method = static_cast<scandof::dof::Method>((j % 9) / 3);
      s.dof_shape = static_cast<scandof::dof::Shape>(j % 3);
    }
    if (v & kVaryView) s.view = static_cast<View>(j % kNumViews);
    if (v & kVaryMsaa) s.msaa = kMsaa[j % 3];
    if (v & kVaryPipeline) s.pipeline = static_cast<Pipeline>(j % 2);
    s.show_primitives = (v & kVaryExtras) && k % 20 == 13;
    // A CPU-gold DoF is known in advance where no CUDA backend can run it on the GPU.
    const bool gpu_dof_possible =
        scandof::cuda_device_available() &&
        (s.backend == SatBackend::Cuda || s.backend == SatBackend::Auto);
    if (!gpu_dof_possible && !fragment_can_draw(s) &&
        static_cast<long long>(target_w_) * target_h_ > kCpuDofMaxPixels) {
      s.dof_method = scandof::dof::Method::Gather;
      s.dof_shape = scandof::dof::Shape::Box;
      capped_this_switch_ = true;
      ++report_.cpu_dof_capped;
    }
  }
  app.settings() = s;
}

void Soak::resize_event(App& app, SoakStep*) {
  // A pending fault of a resize kind takes the place of this resize.
  std::optional<Fault> fault;
  while (next_fault_ < o_.soak.faults.size()) {
    const Fault f = o_.soak.faults[next_fault_];
    if (f == Fault::NoGlCompute) {
      ++next_fault_;
      continue;
    }
    if (f == Fault::ReferenceCancel) break;  // taken by the next reference
    fault = f;
    ++next_fault_;
    break;
  }
  if (fault == Fault::Minimise) {
    std::fprintf(stderr, "[soak] minimise: the frame is 0x0 for %d passes\n", kMinimisedPasses);
    minimised_left_ = kMinimisedPasses;  // this pass and the next 4
    return;
  }
  if (fault == Fault::HugeResize) {
    std::fprintf(stderr, "[soak] huge-resize: asking for %dx%d\n", kHugeSide, kHugeSide);
    huge_this_pass_ = true;
    pending_resize_fault_ = fault;
    ++report_.resizes;
    return;
  }
  const std::uint64_t r =
      scandof::util::hash_at(rng_state_, static_cast<std::uint64_t>(report_.resizes));
  auto pick = [](int base, std::uint64_t bits) {
    const int lo = std::max(8, base / 4), hi = std::max(lo, base * 5 / 4);
    return lo + static_cast<int>(bits % static_cast<std::uint64_t>(hi - lo + 1));
  };
  int w = pick(base_w_, r & 0xffffffffu), h = pick(base_h_, r >> 32);
  if (w == app.width() && h == app.height()) ++w;  // a real change
  if (fault) {
    arm_fault(*fault);
    pending_resize_fault_ = fault;
    std::fprintf(stderr, "[soak] %s: armed for the resize to %dx%d\n", to_string(*fault), w, h);
  }
  target_w_ = w;
  target_h_ = h;
  ++report_.resizes;
}

void Soak::resize_refused(App& app, int asked_w, int asked_h, const std::string& why) {
  ++report_.refused_resizes;
  std::fprintf(stderr, "[soak] resize to %dx%d refused: %s; going on at %dx%d\n", asked_w, asked_h,
               why.c_str(), app.width(), app.height());
  const std::string what = pending_resize_fault_ ? to_string(*pending_resize_fault_) : "resize";
  event(what, "resize to " + std::to_string(asked_w) + "x" + std::to_string(asked_h) +
                  " refused: " + why + "; kept " + std::to_string(app.width()) + "x" +
                  std::to_string(app.height()),
        true);
  pending_resize_fault_.reset();
  target_w_ = app.width();
  target_h_ = app.height();
}

void Soak::after_frame(App& app) {
  const long long f = report_.frames++;
  const int n = o_.soak.switch_every;
  const bool first_of_switch = f % n == 0;
  const bool last_of_switch = f % n == n - 1 || (o_.soak.frames > 0 && f + 1 == o_.soak.frames);
  if (pending_resize_fault_ && !huge_this_pass_ && app.width() == target_w_ &&
      app.height() == target_h_ && fault_armed(*pending_resize_fault_) == false) {
    // The armed fault was taken but the resize went through: the hook did not refuse it.
    event(to_string(*pending_resize_fault_),
          "the fault struck but the resize to " + std::to_string(target_w_) + "x" +
              std::to_string(target_h_) + " was not refused",
          false);
    pending_resize_fault_.reset();
  }
  // A CPU-gold DoF found by running it (a method the CUDA DoF lacks): gather/box from here on.
  if (!capped_this_switch_ && app.last().dof_route == DofRoute::CpuGold &&
      static_cast<long long>(app.width()) * app.height() > kCpuDofMaxPixels) {
    app.settings().dof_method = scandof::dof::Method::Gather;
    app.settings().dof_shape = scandof::dof::Shape::Box;
    capped_this_switch_ = true;
    ++report_.cpu_dof_capped;
  }
  if (f == 0) sample(app, false);
  if (first_of_switch && switch_no_ > 0) {
    const bool extras = (o_.soak.vary & kVaryExtras) != 0;
    if (switch_no_ % 20 == 3 && (extras || next_fault_is_reference_cancel())) reference(app);
    if (extras && switch_no_ % 20 == 7 && !o_.screenshot_dir.empty()) screenshot(app);
    if (o_.verify && !canonical_ && switch_no_ % o_.soak.verify_every == 1) verify(app, "switch");
  }
  if (last_of_switch) {
    sample(app, canonical_);
    if (o_.verify && canonical_) verify(app, "canonical");
  }
}

void Soak::sample(App& app, bool canonical) {
  SoakSample s;
  s.frame = report_.frames;
  s.t_s = elapsed_s();
  s.width = app.width();
  s.height = app.height();
  s.canonical = canonical;
  s.config = config_label(app);
  s.mem = sample_memory(/*trim=*/canonical);
  samples_.add(s);
  if (canonical) canonical_samples_.add(s);
  if (canonical || report_.switches % 10 == 1)
    std::fprintf(stderr,
                 "[soak] frame %lld (%.0f s) %dx%d %s%s: RSS %s (heap %s), CUDA %s, GL objects %d, "
                 "fds %d\n",
                 s.frame, s.t_s, s.width, s.height, s.config.c_str(),
                 canonical ? " (canonical)" : "", mib(s.mem.rss_bytes).c_str(),
                 mib(s.mem.heap_bytes).c_str(),
                 s.mem.cuda_used_bytes >= 0 ? mib(s.mem.cuda_used_bytes).c_str() : "n/a",
                 s.mem.gl.total(), s.mem.fds);
}

void Soak::reference(App& app) {
  ++report_.references;
  if (next_fault_is_reference_cancel()) {
    ++next_fault_;
    arm_fault(Fault::ReferenceCancel);
    try {
      compare_with_reference(app);
      event(to_string(Fault::ReferenceCancel), "the reference was not cancelled", false);
      return;
    } catch (const ReferenceCancelled& e) {
      std::fprintf(stderr, "[soak] %s; rendering it again in full\n", e.what());
      // The state after a cancel: no reference kept, the next one renders from the start.
      const QualityResult& q = compare_with_reference(app);
      const bool ok = q.reference_samples == app.settings().reference_samples;
      event(to_string(Fault::ReferenceCancel),
            std::string(e.what()) + "; rendered again in full (" +
                std::to_string(q.reference_samples) + " samples)",
            ok);
      return;
    }
  }
  const QualityResult& q = compare_with_reference(app);
  std::fprintf(stderr, "[soak] lens reference (%d samples): PSNR %.2f dB, SSIM %.4f\n",
               q.reference_samples, q.q.psnr_db, q.q.ssim);
}

void Soak::screenshot(App& app) {
  const std::string path = o_.screenshot_dir + "/soak-shot.png";  // one file, overwritten
  try {
    app.screenshot(path);
    ++report_.screenshots;
  } catch (const std::exception& e) {
    ++report_.screenshot_failures;
    std::fprintf(stderr, "[soak] screenshot failed: %s; the soak goes on\n", e.what());
    if (report_.screenshot_failures == 1) event("screenshot", e.what(), true);
  }
}

void Soak::verify(App& app, const char* when) {
  std::string msg;
  const bool ok = demo::verify(app, &msg);
  ++report_.verifies;
  if (!ok) {
    ++report_.verify_failures;
    failed_ = true;
    std::fprintf(stderr, "[soak] verify FAILED at frame %lld (%s switch, %s):\n%s\n",
                 report_.frames, when, config_label(app).c_str(), msg.c_str());
  }
}

// ---- The end ----------------------------------------------------------------------------------------

int Soak::finish(ReportInput* report) {
  SoakReport& r = report_;
  r.seconds = elapsed_s();
  r.samples = samples_.items();
  r.canonical = canonical_samples_.items();
  r.sample_stride = samples_.stride();
  r.canonical_stride = canonical_samples_.stride();
  if (pending_resize_fault_)
    event(to_string(*pending_resize_fault_), "the soak ended before the fault struck", false);
  for (std::size_t i = next_fault_; i < o_.soak.faults.size(); ++i)
    if (o_.soak.faults[i] != Fault::NoGlCompute)
      event(to_string(o_.soak.faults[i]),
            "never fired: the soak ended first (more frames, or a shorter --soak-resize)", false);

  // Flat or not, over the canonical samples after the warm-up.
  SoakVerdict& v = r.verdict;
  // The warm-up also covers the first 12 switches: by then every value of every dimension has run
  // once (9 non-canonical switches), so shader variants and driver caches have their full set.
  const bool long_run = r.seconds >= 120.0;
  const long long cover = 12LL * o_.soak.switch_every;
  v.warmup = std::string(long_run ? "first 60 s" : "first 10% of frames") + " and the first " +
             std::to_string(cover) + " frames (12 switches: every value of every dimension once)";
  std::vector<SoakSample> post;
  for (const SoakSample& s : r.canonical)
    if ((long_run ? s.t_s >= 60.0 : s.frame >= r.frames / 10) && s.frame >= cover)
      post.push_back(s);
  v.samples = static_cast<int>(post.size());
  v.enough = post.size() >= 4;  // fewer cannot tell a trend from the warm-up's tail
  char line[512];
  if (!v.enough) {
    std::snprintf(line, sizeof line,
                  "soak: memory flat: UNKNOWN (%zu canonical samples after the %s; at least 4 "
                  "needed: run longer)",
                  post.size(), v.warmup.c_str());
  } else {
    // Drift: the median of the last third of the samples against the median of the first third,
    // relative. A leak drifts steadily; the state a driver's caches happen to be in moves single
    // samples (llvmpipe's shader variants: +-2 MB of a 110 MB RSS between canonical samples, up
    // and down), which medians of thirds absorb. The largest single deviation is told too.
    auto drift = [&](long long MemSample::*field, double* worst) {
      *worst = -1;
      if (post.front().mem.*field <= 0) return -1.0;
      const std::size_t third = std::max<std::size_t>(1, post.size() / 3);
      auto median = [&](std::size_t from) {
        std::vector<double> x;
        for (std::size_t i = from; i < from + third; ++i)
          x.push_back(static_cast<double>(post[i].mem.*field));
        std::sort(x.begin(), x.end());
        return x.size() % 2 ? x[x.size() / 2] : 0.5 * (x[x.size() / 2 - 1] + x[x.size() / 2]);
      };
      const double first = median(0), last = median(post.size() - third);
      *worst = 0;
      for (const SoakSample& s : post)
        *worst = std::max(*worst, std::abs(static_cast<double>(s.mem.*field) - first) / first);
      return std::abs(last - first) / first;
    };
    v.rss_dev = drift(&MemSample::rss_bytes, &v.rss_worst);
    v.heap_dev = drift(&MemSample::heap_bytes, &v.heap_worst);
    v.cuda_dev = drift(&MemSample::cuda_used_bytes, &v.cuda_worst);
    v.nvx_dev = drift(&MemSample::nvx_used_kib, &v.nvx_worst);
    const double lim = o_.soak.flat_limit;
    v.limit = lim;
    v.rss_flat = v.rss_dev >= 0 && v.rss_dev <= lim;
    v.gpu_flat = (v.cuda_dev < 0 || v.cuda_dev <= lim) && (v.nvx_dev < 0 || v.nvx_dev <= lim);
    // Objects and descriptors: the last sample no higher than the highest of the first half.
    int gl_first = 0, fd_first = 0;
    for (std::size_t i = 0; i < (post.size() + 1) / 2; ++i) {
      gl_first = std::max(gl_first, post[i].mem.gl.total());
      fd_first = std::max(fd_first, post[i].mem.fds);
    }
    v.gl_flat = post.back().mem.gl.total() <= gl_first;
    v.fds_flat = post.back().mem.fds <= fd_first;
    auto pct = [](double d) {
      char b[32];
      if (d < 0) return std::string("n/a");
      std::snprintf(b, sizeof b, "%.2f%%", 100.0 * d);
      return std::string(b);
    };
    std::snprintf(line, sizeof line,
                  "soak: memory %s: after the %s, %d canonical samples, drift (median of the last "
                  "third vs the first, limit %s) / largest deviation: RSS %s / %s (%s .. %s), "
                  "CUDA device memory %s / %s, GL_NVX memory %s / %s, heap in use %s / %s; GL "
                  "objects %d -> %d, fds %d -> %d",
                  v.flat() ? "flat" : "NOT FLAT", v.warmup.c_str(), v.samples,
                  pct(v.limit).c_str(), pct(v.rss_dev).c_str(), pct(v.rss_worst).c_str(),
                  mib(post.front().mem.rss_bytes).c_str(), mib(post.back().mem.rss_bytes).c_str(),
                  pct(v.cuda_dev).c_str(), pct(v.cuda_worst).c_str(), pct(v.nvx_dev).c_str(),
                  pct(v.nvx_worst).c_str(), pct(v.heap_dev).c_str(), pct(v.heap_worst).c_str(),
                  post.front().mem.gl.total(), post.back().mem.gl.total(), post.front().mem.fds,
                  post.back().mem.fds);
  }
  v.line = line;
  if (v.enough && !v.flat()) failed_ = true;

  std::printf("soak: %lld frames in %.1f s (%lld passes minimised), %d switches, %d resizes "
              "(%d refused), %d verifies (%d failed), %d references, %d primitives runs, %d "
              "screenshots (%d failed), %d switches with CPU-gold DoF capped\n",
              r.frames, r.seconds, r.skipped_passes, r.switches, r.resizes, r.refused_resizes,
              r.verifies, r.verify_failures, r.references, r.primitive_runs, r.screenshots,
              r.screenshot_failures, r.cpu_dof_capped);
  for (const SoakFaultEvent& e : r.events)
    std::printf("soak: fault %s at frame %lld: %s: %s\n", e.fault.c_str(), e.frame,
                e.recovered ? "recovered" : "NOT RECOVERED", e.message.c_str());
  std::printf("%s\n", v.line.c_str());
  std::fflush(stdout);
  if (report) {
    report->soak = &report_;
    report->frames = r.frames;
  }
  return failed_ ? 1 : 0;
}

}  // namespace demo
