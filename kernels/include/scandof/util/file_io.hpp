// The one way the project's programs write a file: into a temporary file in the destination's own
// folder, every write and the close checked, then renamed over the destination. A full disk, a
// killed process or a failed write leaves the old file as it was (rename is atomic on POSIX) and
// never a half-written one. Paths that are not regular files (/dev/null, /dev/full, a FIFO) are
// written in place, since they cannot be renamed over; failures there are still reported.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace scandof {
namespace util {

// Calls write(out) and commits what it wrote to `path`. Throws std::runtime_error naming the path
// and the reason (errno's text) when anything fails; the destination is then untouched.
void write_file_atomic(const std::string& path, const std::function<void(std::ostream&)>& write);

// Several files that belong together (sorted keys and their values): every one is written to its
// temporary file first, and only when all of them succeeded are they renamed into place, so a
// failure in any leaves all destinations as they were. (The renames themselves can only fail for
// reasons the temporary files' creation in the same folders already ruled out, bar a race.)
struct FileWrite {
  std::string path;
  std::function<void(std::ostream&)> write;
};
void write_files_atomic(const std::vector<FileWrite>& files);

// For a program's output folder (--out DIR): creates it and its parents, and checks it can be
// written, so a mistyped or read-only --out fails at start-up instead of after a long benchmark.
// Throws std::runtime_error naming the folder and the reason.
void make_output_folder(const std::string& folder);

inline void write_text_file(const std::string& path, const std::string& text) {
  write_file_atomic(path, [&](std::ostream& o) { o << text; });
}

}  // namespace util
}  // namespace scandof
