// A small reader/writer for NumPy's .npy files, so the CLI and tests exchange arrays with numpy
// (np.save / np.load) without Python in the build. Host-only; no CUDA needed.
//
//   scandof::npy::Array a = scandof::npy::load("in.npy");       // throws npy::Error
//   int32_t* p = a.data<int32_t>();                              // checks the dtype
//   scandof::npy::save("out.npy", a);
//
// Supported: format versions 1.0, 2.0 and 3.0; little-endian '<i4' '<u4' '<i8' '<f4' '<f8' and
// '|u1'; C order; any number of dimensions (the callers decide what they accept: 1-D for scans,
// 2-D for images). Not supported, each with its own clear error: Fortran order, big-endian or any
// other dtype, structured dtypes, object arrays. The whole array is held in host memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace scandof::npy {

enum class DType : int { Int32, UInt32, Int64, Float32, Float64, UInt8 };

const char* to_string(DType t);  // numpy's name: "int32", "uint8", ...
const char* descr(DType t);      // the .npy descr: "<i4", "|u1", ...
std::size_t item_size(DType t);
// Accepts numpy's names ("int32", "float64", "uint8") and descrs ("<i4", "|u1").
// Throws std::invalid_argument naming the supported choices.
DType parse_dtype(const std::string& name);
// "'<i4' (int32), '<u4' (uint32), ..." for error messages.
std::string supported_dtypes();

template <class T>
constexpr DType dtype_of();
template <>
constexpr DType dtype_of<std::int32_t>() {
  return DType::Int32;
}
template <>
constexpr DType dtype_of<std::uint32_t>() {
  return DType::UInt32;
}
template <>
constexpr DType dtype_of<std::int64_t>() {
  return DType::Int64;
}
template <>
constexpr DType dtype_of<float>() {
  return DType::Float32;
}
template <>
constexpr DType dtype_of<double>() {
  return DType::Float64;
}
template <>
constexpr DType dtype_of<std::uint8_t>() {
  return DType::UInt8;
}

// What went wrong, so callers and tests can tell the cases apart without parsing messages.
enum class ErrorKind : int {
  Io,                  // cannot open / read / write the file
  BadMagic,            // not a .npy file
  UnsupportedVersion,  // format version other than 1.0, 2.0, 3.0
  Truncated,           // file ends inside the preamble, the header or the data
  BadHeader,           // the header dict does not parse or lacks a key
  UnsupportedDtype,    // big-endian, structured, or a dtype not in the list above
  FortranOrder,        // fortran_order: True
  TrailingData,        // bytes after the data that the shape does not account for
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

// The parsed header dict.
struct Header {
  DType dtype = DType::Float64;
  std::vector<std::size_t> shape;  // () is a scalar: one element
  int major_version = 1;           // of the file read; save() picks the smallest that fits
  std::size_t data_offset = 0;     // bytes from the file start to the first element
  std::size_t count() const;       // product of shape; throws Error(BadHeader) on overflow
  std::size_t data_bytes() const { return count() * item_size(dtype); }
};

struct Array {
  DType dtype = DType::Float64;
  std::vector<std::size_t> shape;
  std::vector<unsigned char> bytes;  // count() * item_size(dtype), C order, little-endian

  Array() = default;
  // Allocates count(shape) elements (zero-filled).
  Array(DType t, std::vector<std::size_t> s);

  std::size_t count() const;
  std::size_t ndim() const { return shape.size(); }
  // Typed view; throws std::invalid_argument when T does not match dtype.
  template <class T>
  T* data() {
    check_type(dtype_of<T>());
    return reinterpret_cast<T*>(bytes.data());
  }
  template <class T>
  const T* data() const {
    check_type(dtype_of<T>());
    return reinterpret_cast<const T*>(bytes.data());
  }

 private:
  void check_type(DType want) const;
};

// "(1000,)", "(480, 640)", "()": numpy's own spelling, for messages.
std::string shape_string(const std::vector<std::size_t>& shape);

// Parses the dict text of a header ("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }"),
// which may be followed by space padding and a newline. `name` prefixes error messages.
Header parse_header_dict(std::string_view text, const std::string& name = "<header>");

// Reads preamble + header from the start of `in`; leaves `in` at the first data byte.
Header read_header(std::istream& in, const std::string& name = "<stream>");

// `name` appears in error messages. total_size (if known) lets truncation and trailing bytes be
// reported before the data is read; pass SIZE_MAX when unknown.
Array load(std::istream& in, const std::string& name = "<stream>",
           std::size_t total_size = static_cast<std::size_t>(-1));
Array load(const std::string& path);

// Writes version 1.0 (2.0 if the header needs more than 65535 bytes), header padded so the data
// starts at a multiple of 64 bytes, as numpy does.
void save(std::ostream& out, DType dtype, const std::vector<std::size_t>& shape, const void* data,
          const std::string& name = "<stream>");
void save(const std::string& path, DType dtype, const std::vector<std::size_t>& shape,
          const void* data);
inline void save(const std::string& path, const Array& a) {
  save(path, a.dtype, a.shape, a.bytes.data());
}

}  // namespace scandof::npy
