// .npy reader/writer; see scandof/npy.hpp for what is supported and why.
#include "scandof/npy.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <limits>
#include <ostream>
#include <sstream>

#include "scandof/util/file_io.hpp"

// The payload is copied straight into host arrays, which is only right on a little-endian host
// (x86-64, AArch64 as used everywhere CUDA runs).
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "scandof::npy assumes a little-endian host"
#endif

namespace scandof::npy {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicLen = 6;
constexpr std::size_t kAlign = 64;  // numpy aligns the data start to 64 bytes since 1.16

struct DTypeInfo {
  DType type;
  const char* name;
  const char* descr;
  std::size_t size;
};
constexpr DTypeInfo kTypes[] = {
    {DType::Int32, "int32", "<i4", 4},     {DType::UInt32, "uint32", "<u4", 4},
    {DType::Int64, "int64", "<i8", 8},     {DType::Float32, "float32", "<f4", 4},
    {DType::Float64, "float64", "<f8", 8}, {DType::UInt8, "uint8", "|u1", 1},
};

const DTypeInfo& info(DType t) {
  for (const auto& i : kTypes)
    if (i.type == t) return i;
  throw std::invalid_argument("scandof::npy: invalid DType value " +
                              std::to_string(static_cast<int>(t)));
}

// A readable name for any numpy descr, so the error can say what the file holds ("'>i4' is
// big-endian int32", "'<i2' (int16)").
std::string describe_descr(const std::string& d) {
  if (d.size() < 2) return "'" + d + "'";
  const char kind = d[1];
  const std::string bytes = d.substr(2);
  int bits = 0;
  try {
    std::size_t used = 0;
    bits = std::stoi(bytes, &used) * 8;
    if (used != bytes.size()) bits = 0;
  } catch (const std::exception&) {
    bits = 0;
  }
  // numpy's kind letters; the numeric ones are named with their size in bits ("int32").
  struct Kind {
    char letter;
    const char* name;
    bool sized;
  };
  static const Kind kKinds[] = {
      {'i', "int", true},          {'u', "uint", true},
      {'f', "float", true},        {'c', "complex", true},
      {'b', "bool", false},        {'U', "unicode string", false},
      {'S', "byte string", false}, {'O', "Python objects", false},
      {'M', "datetime64", false},  {'m', "timedelta64", false},
      {'V', "raw bytes", false},
  };
  for (const Kind& k : kKinds)
    if (k.letter == kind)
      return "'" + d + "' (" + k.name + (k.sized && bits ? std::to_string(bits) : "") + ")";
  return "'" + d + "'";
}

// A header value for a message: a structured dtype's description can run to megabytes, and one
// line of it helps nobody.
std::string shorten(const std::string& text, std::size_t max = 120) {
  if (text.size() <= max) return text;
  return text.substr(0, max) + "... (" + std::to_string(text.size()) + " characters)";
}

Error bad_header(const std::string& name, const std::string& why, std::string_view text) {
  std::string shown(text.substr(0, 200));
  while (!shown.empty() && (shown.back() == ' ' || shown.back() == '\n')) shown.pop_back();
  return Error(ErrorKind::BadHeader,
               name + ": .npy header does not parse (" + why + "): \"" + shown + "\"");
}

// A tiny parser for the Python literal numpy writes: a dict of str keys to str, bool or tuple of
// ints. Anything else (lists for structured dtypes) is captured as raw text.
class DictParser {
 public:
  struct Value {
    enum Kind { String, Bool, None, IntTuple, Other } kind = Other;
    std::string text;
    bool boolean = false;
    std::vector<std::size_t> ints;
  };

  DictParser(std::string_view s, const std::string& name) : s_(s), name_(name) {}

  template <class F>
  void parse(F&& on_item) {
    skip_ws();
    expect('{');
    parse_items('}', [&] {
      std::string key = parse_string();
      skip_ws();
      expect(':');
      skip_ws();
      on_item(key, parse_value());
    });
    // numpy pads with spaces and ends with '\n'; anything else is damage.
    for (; pos_ < s_.size(); ++pos_)
      if (!std::isspace(static_cast<unsigned char>(s_[pos_])))
        fail("unexpected text after the closing '}'");
  }

 private:
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skip_ws() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  [[noreturn]] void fail(const std::string& why) const {
    throw bad_header(name_, why + " at offset " + std::to_string(pos_), s_);
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  // The items of a dict or tuple literal after its opening bracket, up to `close`: item() parses
  // one, commas separate them and may trail ("(3,)"), an empty literal has none.
  template <class Item>
  void parse_items(char close, Item&& item) {
    for (;;) {
      skip_ws();
      if (peek() == close) {
        ++pos_;
        return;
      }
      item();
      skip_ws();
      if (peek() != ',') {
        expect(close);
        return;
      }
      ++pos_;
    }
  }
  std::string parse_string() {
    const char q = peek();
    if (q != '\'' && q != '"') fail("expected a quoted string");
    ++pos_;
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != q) {
      if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) ++pos_;
      out += s_[pos_++];
    }
    if (pos_ >= s_.size()) fail("unterminated string");
    ++pos_;
    return out;
  }
  bool match_word(std::string_view w) {
    if (s_.substr(pos_, w.size()) != w) return false;
    const std::size_t end = pos_ + w.size();
    if (end < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '_'))
      return false;
    pos_ = end;
    return true;
  }
  std::size_t parse_uint() {
    if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("expected a non-negative integer");
    std::size_t v = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      const std::size_t d = static_cast<std::size_t>(s_[pos_++] - '0');
      if (v > (std::numeric_limits<std::size_t>::max() - d) / 10) fail("integer too large");
      v = v * 10 + d;
    }
    if (peek() == 'L' || peek() == 'l') ++pos_;  // Python 2 longs: "(3L,)"
    return v;
  }
  Value parse_value() {
    Value v;
    const char c = peek();
    if (c == '\'' || c == '"') {
      v.kind = Value::String;
      v.text = parse_string();
    } else if (match_word("True")) {
      v.kind = Value::Bool;
      v.boolean = true;
    } else if (match_word("False")) {
      v.kind = Value::Bool;
      v.boolean = false;
    } else if (match_word("None")) {
      v.kind = Value::None;
    } else if (c == '(') {
      ++pos_;
      v.kind = Value::IntTuple;
      parse_items(')', [&] { v.ints.push_back(parse_uint()); });
    } else if (c == '[' || c == '{') {
      v.kind = Value::Other;
      v.text = skip_bracketed();
    } else {
      fail("unexpected value");
    }
    return v;
  }
  // Returns the text of a bracketed literal (a structured dtype's list), honouring quotes.
  std::string skip_bracketed() {
    const std::size_t start = pos_;
    int depth = 0;
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (c == '\'' || c == '"') {
        parse_string();
        continue;
      }
      if (c == '[' || c == '(' || c == '{') ++depth;
      if (c == ']' || c == ')' || c == '}') --depth;
      ++pos_;
      if (depth == 0) return std::string(s_.substr(start, pos_ - start));
    }
    fail("unbalanced brackets");
  }

  std::string_view s_;
  const std::string& name_;
  std::size_t pos_ = 0;
};

std::size_t count_of(const std::vector<std::size_t>& shape, const std::string& name) {
  std::size_t n = 1;
  for (std::size_t d : shape) {
    if (d != 0 && n > std::numeric_limits<std::size_t>::max() / d)
      throw Error(ErrorKind::BadHeader, name + ": shape " + shape_string(shape) + " overflows");
    n *= d;
  }
  return n;
}

}  // namespace

const char* to_string(DType t) {
  return info(t).name;
}
const char* descr(DType t) {
  return info(t).descr;
}
std::size_t item_size(DType t) {
  return info(t).size;
}

std::string supported_dtypes() {
  std::string s;
  for (const auto& i : kTypes) {
    if (!s.empty()) s += ", ";
    s += std::string("'") + i.descr + "' (" + i.name + ")";
  }
  return s;
}

DType parse_dtype(const std::string& name) {
  for (const auto& i : kTypes)
    if (name == i.name || name == i.descr) return i.type;
  if (name == "<u1" || name == "=u1") return DType::UInt8;
  std::string choices;
  for (const auto& i : kTypes) choices += std::string(choices.empty() ? "" : ", ") + i.name;
  throw std::invalid_argument("unsupported dtype '" + name + "'; supported: " + choices);
}

std::string shape_string(const std::vector<std::size_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

std::size_t Header::count() const {
  return count_of(shape, "<header>");
}

Array::Array(DType t, std::vector<std::size_t> s) : dtype(t), shape(std::move(s)) {
  const std::size_t n = count_of(shape, "<array>");
  if (n > std::numeric_limits<std::size_t>::max() / item_size(t))
    throw std::length_error("npy::Array: shape " + shape_string(shape) + " of " + to_string(t) +
                            " needs more bytes than the address space holds");
  bytes.resize(n * item_size(t));
}

std::size_t Array::count() const {
  return bytes.size() / item_size(dtype);
}

void Array::check_type(DType want) const {
  if (want != dtype)
    throw std::invalid_argument(std::string("npy::Array holds ") + to_string(dtype) + ", not " +
                                to_string(want));
}

Header parse_header_dict(std::string_view text, const std::string& name) {
  bool have_descr = false, have_order = false, have_shape = false;
  Header h;
  // The whole dict parses before any value is judged, so damaged text reads as a header error
  // rather than as whatever half-parsed value came first.
  std::vector<std::pair<std::string, DictParser::Value>> items;
  DictParser(text, name).parse([&](const std::string& key, const DictParser::Value& v) {
    items.emplace_back(key, v);
  });
  for (const auto& [key, v] : items) {
    if (key == "descr") {
      have_descr = true;
      if (v.kind != DictParser::Value::String)
        throw Error(ErrorKind::UnsupportedDtype,
                    name + ": structured dtype " + shorten(v.text) +
                        " is not supported; supported: " + supported_dtypes());
      const std::string& d = v.text;
      if (d.size() >= 2 && d[0] == '>') {
        std::string le = d;
        le[0] = '<';
        throw Error(ErrorKind::UnsupportedDtype,
                    name + ": big-endian dtype " + describe_descr(shorten(d)) +
                        " is not supported; convert it first, e.g. a.astype('" + le +
                        "'); supported: " + supported_dtypes());
      }
      // Only exact descrs: a bare "int32" is not something numpy writes into a header.
      bool found = false;
      for (const auto& i : kTypes)
        if (d == i.descr) {
          h.dtype = i.type;
          found = true;
        }
      if (d == "<u1" || d == "=u1") {
        h.dtype = DType::UInt8;
        found = true;
      }
      if (!found)
        throw Error(ErrorKind::UnsupportedDtype, name + ": unsupported dtype " +
                                                     describe_descr(shorten(d)) +
                                                     "; supported: " + supported_dtypes());
    } else if (key == "fortran_order") {
      have_order = true;
      if (v.kind != DictParser::Value::Bool)
        throw bad_header(name, "'fortran_order' must be True or False", text);
      if (v.boolean)
        throw Error(ErrorKind::FortranOrder,
                    name +
                        ": Fortran-order (column-major) arrays are not supported; save a "
                        "C-order copy, e.g. np.save(path, np.ascontiguousarray(a))");
    } else if (key == "shape") {
      have_shape = true;
      if (v.kind != DictParser::Value::IntTuple)
        throw bad_header(name, "'shape' must be a tuple of integers", text);
      h.shape = v.ints;
    }
    // numpy itself writes no other keys; unknown ones are ignored rather than rejected.
  }
  if (!have_descr || !have_order || !have_shape)
    throw bad_header(name,
                     std::string("missing key '") +
                         (!have_descr   ? "descr"
                          : !have_order ? "fortran_order"
                                        : "shape") +
                         "'",
                     text);
  count_of(h.shape, name);  // reject shapes whose element count overflows
  return h;
}

Header read_header(std::istream& in, const std::string& name) {
  unsigned char pre[12];
  in.read(reinterpret_cast<char*>(pre), 8);
  const std::size_t got = static_cast<std::size_t>(in.gcount());
  if (got < kMagicLen || std::memcmp(pre, kMagic, kMagicLen) != 0) {
    std::string seen;
    for (std::size_t i = 0; i < std::min<std::size_t>(got, kMagicLen); ++i) {
      const unsigned char c = pre[i];
      if (std::isprint(c)) {
        seen += static_cast<char>(c);
      } else {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        seen += buf;
      }
    }
    if (got == 0) throw Error(ErrorKind::BadMagic, name + ": not a .npy file (it is empty)");
    throw Error(ErrorKind::BadMagic, name + ": not a .npy file (it starts with \"" + seen +
                                         "\", a .npy file starts with \"\\x93NUMPY\")");
  }
  if (got < 8)
    throw Error(ErrorKind::Truncated, name + ": truncated .npy file (ends inside the preamble)");
  const int major = pre[6], minor = pre[7];
  if (major < 1 || major > 3 || minor != 0)
    throw Error(ErrorKind::UnsupportedVersion,
                name + ": unsupported .npy format version " + std::to_string(major) + "." +
                    std::to_string(minor) + " (supported: 1.0, 2.0, 3.0)");
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  in.read(reinterpret_cast<char*>(pre + 8), static_cast<std::streamsize>(len_bytes));
  if (static_cast<std::size_t>(in.gcount()) != len_bytes)
    throw Error(ErrorKind::Truncated, name + ": truncated .npy file (ends inside the preamble)");
  std::size_t header_len = 0;
  for (std::size_t i = 0; i < len_bytes; ++i) header_len |= std::size_t(pre[8 + i]) << (8 * i);
  // numpy's own headers are a few hundred bytes (it refuses over 10000 by default); a huge length
  // means a damaged file, and trusting it would allocate up to 4 GiB before finding out.
  constexpr std::size_t kMaxHeader = std::size_t(1) << 20;
  if (header_len > kMaxHeader)
    throw Error(ErrorKind::BadHeader, name + ": .npy header length " + std::to_string(header_len) +
                                          " bytes is implausible (damaged file?)");
  std::string text(header_len, '\0');
  in.read(text.data(), static_cast<std::streamsize>(header_len));
  if (static_cast<std::size_t>(in.gcount()) != header_len)
    throw Error(ErrorKind::Truncated, name + ": truncated .npy file (header of " +
                                          std::to_string(header_len) + " bytes, only " +
                                          std::to_string(in.gcount()) + " present)");
  // Version 3.0 allows UTF-8 in the header; the keys and values that matter are ASCII, so the same
  // parser serves all three versions.
  Header h = parse_header_dict(text, name);
  h.major_version = major;
  h.data_offset = 8 + len_bytes + header_len;
  return h;
}

Array load(std::istream& in, const std::string& name, std::size_t total_size) {
  const Header h = read_header(in, name);
  const std::size_t n = count_of(h.shape, name);
  const std::size_t isz = item_size(h.dtype);
  if (n > std::numeric_limits<std::size_t>::max() / isz)
    throw Error(ErrorKind::BadHeader, name + ": shape " + shape_string(h.shape) + " overflows");
  const std::size_t need = n * isz;
  const bool known = total_size != static_cast<std::size_t>(-1);
  if (known) {
    const std::size_t have = total_size - std::min(total_size, h.data_offset);
    if (have < need)
      throw Error(ErrorKind::Truncated, name + ": truncated .npy file: shape " +
                                            shape_string(h.shape) + " of " + to_string(h.dtype) +
                                            " needs " + std::to_string(need) +
                                            " data bytes, the file holds " + std::to_string(have));
    if (have > need)
      throw Error(ErrorKind::TrailingData, name + ": " + std::to_string(have - need) +
                                               " unexpected bytes after the data of shape " +
                                               shape_string(h.shape) + " (" + to_string(h.dtype) +
                                               "); the file is damaged or not a plain .npy");
  }
  Array a;
  a.dtype = h.dtype;
  a.shape = h.shape;
  std::size_t got = 0;
  if (known) {
    a.bytes.resize(need);  // the size is checked above: the bytes are there
    in.read(reinterpret_cast<char*>(a.bytes.data()), static_cast<std::streamsize>(need));
    got = static_cast<std::size_t>(in.gcount());
  } else {
    // A pipe: the header's claim is not trusted with memory. Read in chunks that double (1 MiB
    // first), so a 150-byte stream claiming 6 GiB costs 1 MiB before it reads as truncated, and a
    // real stream at most twice its size while growing.
    std::size_t chunk = std::size_t(1) << 20;
    while (got < need) {
      const std::size_t want = std::min(chunk, need - got);
      a.bytes.resize(got + want);
      in.read(reinterpret_cast<char*>(a.bytes.data() + got), static_cast<std::streamsize>(want));
      const std::size_t g = static_cast<std::size_t>(in.gcount());
      got += g;
      if (g < want) break;
      chunk = std::min(chunk * 2, std::size_t(1) << 30);
    }
  }
  if (got != need) {
    if (in.bad())
      throw Error(ErrorKind::Io, name + ": read error after " + std::to_string(got) + " bytes");
    throw Error(ErrorKind::Truncated, name + ": truncated .npy file: shape " +
                                          shape_string(h.shape) + " of " + to_string(h.dtype) +
                                          " needs " + std::to_string(need) +
                                          " data bytes, the file holds " + std::to_string(got));
  }
  if (!known && in.peek() != std::char_traits<char>::eof())
    throw Error(ErrorKind::TrailingData,
                name + ": unexpected bytes after the data of shape " + shape_string(h.shape));
  return a;
}

Array load(const std::string& path) {
  std::error_code ec;
  // A directory opens fine on Linux and only fails at the first read, with a vaguer message.
  if (std::filesystem::is_directory(path, ec))
    throw Error(ErrorKind::Io, path + ": cannot read: it is a directory");
  std::ifstream f(path, std::ios::binary);
  if (!f)
    throw Error(ErrorKind::Io, path + ": cannot open for reading (" + std::strerror(errno) + ")");
  // Regular files: the size up front turns truncation into one clear error before a big read.
  // Pipes have no size; load() then checks as it reads.
  std::size_t size = static_cast<std::size_t>(-1);
  if (std::filesystem::is_regular_file(path, ec)) {
    const auto s = std::filesystem::file_size(path, ec);
    if (!ec) size = static_cast<std::size_t>(s);
  }
  return load(f, path, size);
}

void save(std::ostream& out, DType dtype, const std::vector<std::size_t>& shape, const void* data,
          const std::string& name) {
  const std::size_t need = count_of(shape, name) * item_size(dtype);
  std::string dict = std::string("{'descr': '") + descr(dtype) +
                     "', 'fortran_order': False, 'shape': " + shape_string(shape) + ", }";
  // Version 1.0 stores the header length in 16 bits; bigger headers (huge ndim) need 2.0.
  int major = 1;
  std::size_t pre = 10;
  if (dict.size() + 1 + kAlign > 65535) {
    major = 2;
    pre = 12;
  }
  const std::size_t total = (pre + dict.size() + 1 + kAlign - 1) / kAlign * kAlign;
  dict.append(total - pre - dict.size() - 1, ' ');
  dict += '\n';
  const std::size_t header_len = dict.size();

  std::string head(kMagic, kMagicLen);
  head += static_cast<char>(major);
  head += '\0';
  for (std::size_t i = 0; i < pre - 8; ++i)
    head += static_cast<char>((header_len >> (8 * i)) & 0xff);
  out.write(head.data(), static_cast<std::streamsize>(head.size()));
  out.write(dict.data(), static_cast<std::streamsize>(dict.size()));
  if (need) out.write(static_cast<const char*>(data), static_cast<std::streamsize>(need));
  if (!out) throw Error(ErrorKind::Io, name + ": write failed");
}

void save(const std::string& path, DType dtype, const std::vector<std::size_t>& shape,
          const void* data) {
  // Through a temporary file renamed into place: a full disk or a failed write leaves an existing
  // file as it was, never a truncated one.
  try {
    util::write_file_atomic(path, [&](std::ostream& out) { save(out, dtype, shape, data, path); });
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(ErrorKind::Io, e.what());
  }
}

}  // namespace scandof::npy
