// CPU tests of the .npy reader/writer: byte-exact agreement with numpy's own output, round trips
// of every dtype at awkward sizes, all three format versions, and one clear error per kind of bad
// input (each checked for its ErrorKind and for naming what is wrong).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "scandof/npy.hpp"
#include "scandof/util/file_io.hpp"

namespace npy = scandof::npy;
using npy::DType;
using npy::ErrorKind;

namespace {

// The preamble + header numpy writes for `dict` (version 1.0, padded to 64 like numpy 1.16+).
std::string numpy_style(const std::string& dict, int major = 1) {
  const std::size_t pre = major == 1 ? 10 : 12;
  std::string h = dict;
  const std::size_t total = (pre + h.size() + 1 + 63) / 64 * 64;
  h.append(total - pre - h.size() - 1, ' ');
  h += '\n';
  std::string out = std::string("\x93NUMPY", 6);
  out += static_cast<char>(major);
  out += '\0';
  for (std::size_t i = 0; i < pre - 8; ++i) out += static_cast<char>((h.size() >> (8 * i)) & 0xff);
  return out + h;
}

npy::Array load_bytes(const std::string& bytes, bool give_size = true) {
  std::istringstream in(bytes);
  return npy::load(in, "test.npy", give_size ? bytes.size() : static_cast<std::size_t>(-1));
}

// Runs f, expects npy::Error of `kind` whose message contains every string in `needles`.
template <class F>
void expect_error(F&& f, ErrorKind kind, std::vector<std::string> needles) {
  try {
    f();
    FAIL() << "no error thrown";
  } catch (const npy::Error& e) {
    EXPECT_EQ(static_cast<int>(e.kind()), static_cast<int>(kind)) << e.what();
    for (const auto& n : needles)
      EXPECT_NE(std::string(e.what()).find(n), std::string::npos)
          << "message lacks '" << n << "': " << e.what();
  }
}

template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(std::uniform_real_distribution<double>(-1e6, 1e6)(rng));
    } else {
      // Never zero, to tell a filled array from an untouched one.
      do x = static_cast<T>(rng());
      while (x == 0);
    }
  }
  return v;
}

template <class T>
void round_trip(std::size_t n, std::uint64_t seed) {
  const std::vector<T> v = random_values<T>(n, seed);
  std::ostringstream out;
  npy::save(out, npy::dtype_of<T>(), {n}, v.data());
  const std::string bytes = out.str();
  // Data starts at a multiple of 64 bytes, as numpy writes it (aligned loads after mmap).
  ASSERT_EQ((bytes.size() - n * sizeof(T)) % 64, 0u);
  for (bool give_size : {true, false}) {
    npy::Array a = load_bytes(bytes, give_size);
    ASSERT_EQ(a.dtype, npy::dtype_of<T>());
    ASSERT_EQ(a.shape, std::vector<std::size_t>{n});
    ASSERT_EQ(a.count(), n);
    const T* p = a.data<T>();
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(std::memcmp(&p[i], &v[i], sizeof(T)), 0) << i;
  }
}

}  // namespace

// np.save(np.array([1, -2, 3], dtype='<i4')) with numpy 1.24, byte for byte.
TEST(Npy, SaveMatchesNumpyBytes) {
  const std::int32_t v[] = {1, -2, 3};
  std::ostringstream out;
  npy::save(out, DType::Int32, {3}, v);
  std::string expect = std::string("\x93NUMPY\x01\x00\x76\x00", 10) +
                       "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }" +
                       std::string(60, ' ') + "\n" +
                       std::string("\x01\x00\x00\x00\xfe\xff\xff\xff\x03\x00\x00\x00", 12);
  EXPECT_EQ(out.str(), expect);
}

TEST(Npy, SaveMatchesNumpyHeader2D) {
  const std::uint8_t v[6] = {1, 2, 3, 4, 5, 6};
  std::ostringstream out;
  npy::save(out, DType::UInt8, {2, 3}, v);
  EXPECT_EQ(out.str().substr(0, 128),
            numpy_style("{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3), }"));
  EXPECT_EQ(out.str().size(), 134u);
}

TEST(Npy, RoundTripAllDtypesAwkwardSizes) {
  for (std::size_t n : {0u, 1u, 7u, 31u, 1000u, 4097u, 65537u}) {
    SCOPED_TRACE(n);
    round_trip<std::int32_t>(n, 11 + n);
    round_trip<std::uint32_t>(n, 12 + n);
    round_trip<std::int64_t>(n, 13 + n);
    round_trip<float>(n, 14 + n);
    round_trip<double>(n, 15 + n);
    round_trip<std::uint8_t>(n, 16 + n);
  }
}

TEST(Npy, RoundTrip2DAndScalar) {
  const std::vector<float> v = random_values<float>(3 * 5, 7);
  std::ostringstream out;
  npy::save(out, DType::Float32, {3, 5}, v.data());
  npy::Array a = load_bytes(out.str());
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{3, 5}));
  EXPECT_EQ(a.ndim(), 2u);
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_EQ(a.data<float>()[i], v[i]);

  const double s = 2.5;
  std::ostringstream out0;
  npy::save(out0, DType::Float64, {}, &s);
  npy::Array b = load_bytes(out0.str());
  EXPECT_EQ(b.ndim(), 0u);
  ASSERT_EQ(b.count(), 1u);
  EXPECT_EQ(b.data<double>()[0], 2.5);
}

TEST(Npy, ReadsVersions2And3) {
  const std::int64_t v[] = {5, -6, 7};
  const std::string data(reinterpret_cast<const char*>(v), sizeof v);
  for (int major : {2, 3}) {
    const std::string bytes =
        numpy_style("{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }", major) + data;
    npy::Array a = load_bytes(bytes);
    EXPECT_EQ(a.dtype, DType::Int64);
    ASSERT_EQ(a.count(), 3u);
    EXPECT_EQ(a.data<std::int64_t>()[1], -6);
    std::istringstream in(bytes);
    EXPECT_EQ(npy::read_header(in).major_version, major);
  }
}

TEST(Npy, HeaderVariantsParse) {
  // Double quotes, other key order, Python 2 longs, no trailing comma, extra spaces.
  auto h = npy::parse_header_dict(
      "{\"shape\": (4L, 2L), \"fortran_order\": False, \"descr\": \"<f4\"}   \n");
  EXPECT_EQ(h.dtype, DType::Float32);
  EXPECT_EQ(h.shape, (std::vector<std::size_t>{4, 2}));
  EXPECT_EQ(h.count(), 8u);
  h = npy::parse_header_dict("{'descr':'<u4','fortran_order':False,'shape':()}");
  EXPECT_EQ(h.dtype, DType::UInt32);
  EXPECT_TRUE(h.shape.empty());
  EXPECT_EQ(h.count(), 1u);
  h = npy::parse_header_dict("{'descr': '|u1', 'fortran_order': False, 'shape': (0, 3), }");
  EXPECT_EQ(h.count(), 0u);
}

TEST(Npy, BadMagic) {
  expect_error([] { load_bytes("hello, world, this is text\n"); }, ErrorKind::BadMagic,
               {"test.npy", "not a .npy file", "hello,"});
  expect_error([] { load_bytes(""); }, ErrorKind::BadMagic, {"empty"});
  expect_error([] { load_bytes("PK\x03\x04 zipped npz"); }, ErrorKind::BadMagic, {"\\x03"});
}

TEST(Npy, UnsupportedVersion) {
  std::string b = numpy_style("{'descr': '<i4', 'fortran_order': False, 'shape': (0,), }");
  b[6] = 4;
  expect_error([&] { load_bytes(b); }, ErrorKind::UnsupportedVersion, {"4.0", "1.0, 2.0, 3.0"});
}

TEST(Npy, Truncated) {
  const std::int32_t v[] = {1, 2, 3, 4};
  std::ostringstream out;
  npy::save(out, DType::Int32, {4}, v);
  const std::string full = out.str();
  // Cut inside the preamble, inside the header, inside the data; with and without known size.
  for (std::size_t cut : {7u, 9u, 40u, 127u, 128u, 130u, 143u}) {
    SCOPED_TRACE(cut);
    for (bool give_size : {true, false}) {
      expect_error([&] { load_bytes(full.substr(0, cut), give_size); }, ErrorKind::Truncated,
                   {"truncated"});
    }
  }
  expect_error([&] { load_bytes(full.substr(0, 130)); }, ErrorKind::Truncated,
               {"(4,)", "int32", "16", "2"});
}

TEST(Npy, TrailingData) {
  const std::int32_t v[] = {1, 2};
  std::ostringstream out;
  npy::save(out, DType::Int32, {2}, v);
  for (bool give_size : {true, false})
    expect_error([&] { load_bytes(out.str() + "xyz", give_size); }, ErrorKind::TrailingData,
                 {"unexpected bytes"});
}

TEST(Npy, HeaderDoesNotParse) {
  const char* bad[] = {
      "",
      "descr: <i4",
      "{'descr': '<i4', 'fortran_order': False, 'shape': (3,)",       // no closing brace
      "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), } x",  // junk after it
      "{'descr': '<i4', 'fortran_order': maybe, 'shape': (3,), }",
      "{'descr': '<i4', 'fortran_order': False, 'shape': (-3,), }",
      "{'descr': '<i4', 'fortran_order': False, 'shape': (3.5,), }",
      "{'descr': '<i4', 'fortran_order': False, 'shape': 3, }",
      "{'descr': '<i4', 'fortran_order': 0, 'shape': (3,), }",
      "{'descr': '<i4, 'fortran_order': False, 'shape': (3,), }",
      "{'descr': '<i4', 'fortran_order': False, 'shape': (99999999999999999999999,), }",
      "{'descr': '<i4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296), }",
  };
  for (const char* h : bad) {
    SCOPED_TRACE(h);
    expect_error([&] { load_bytes(numpy_style(h)); }, ErrorKind::BadHeader, {"test.npy"});
  }
  expect_error([] { npy::parse_header_dict("{'descr': '<i4', 'shape': (3,), }"); },
               ErrorKind::BadHeader, {"missing key 'fortran_order'"});
  expect_error([] { npy::parse_header_dict("{'fortran_order': False, 'shape': (3,), }"); },
               ErrorKind::BadHeader, {"missing key 'descr'"});
}

TEST(Npy, ImplausibleHeaderLength) {
  // Version 2.0 with a 4 GiB header length: refused before any allocation of that size.
  const std::string b = std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff{'descr'", 19);
  expect_error([&] { load_bytes(b); }, ErrorKind::BadHeader, {"implausible"});
}

TEST(Npy, UnsupportedDtypesNamed) {
  auto header = [](const std::string& descr) {
    return numpy_style("{'descr': " + descr + ", 'fortran_order': False, 'shape': (0,), }");
  };
  expect_error([&] { load_bytes(header("'>i4'")); }, ErrorKind::UnsupportedDtype,
               {"big-endian", "'>i4'", "int32", "astype('<i4')", "'<f8' (float64)"});
  expect_error([&] { load_bytes(header("'<i2'")); }, ErrorKind::UnsupportedDtype,
               {"unsupported dtype '<i2' (int16)", "supported: '<i4' (int32)", "'|u1' (uint8)"});
  expect_error([&] { load_bytes(header("'<c16'")); }, ErrorKind::UnsupportedDtype,
               {"'<c16' (complex128)"});
  expect_error([&] { load_bytes(header("'|O'")); }, ErrorKind::UnsupportedDtype, {"objects"});
  expect_error([&] { load_bytes(header("'<U8'")); }, ErrorKind::UnsupportedDtype, {"unicode"});
  expect_error([&] { load_bytes(header("[('a', '<i4'), ('b', '<f8')]")); },
               ErrorKind::UnsupportedDtype, {"structured", "('a', '<i4')"});
  // A structured dtype of thousands of fields: the message shows its start and its length, not
  // one line of 76 KB.
  std::string many = "[";
  for (int i = 0; i < 5000; ++i) many += "('f" + std::to_string(i) + "', '<i4'), ";
  many += "]";
  try {
    load_bytes(numpy_style("{'descr': " + many + ", 'fortran_order': False, 'shape': (0,), }", 2));
    FAIL() << "no error thrown";
  } catch (const npy::Error& e) {
    EXPECT_LT(std::string(e.what()).size(), 1000u) << e.what();
    EXPECT_NE(std::string(e.what()).find("characters)"), std::string::npos) << e.what();
  }
}

// A stream (no size known) whose header claims far more data than follows: read in growing
// chunks, so the truncation is found without committing the claimed size first.
TEST(Npy, StreamClaimingHugeDataIsTruncatedCheaply) {
  const std::string bytes =
      numpy_style("{'descr': '<f8', 'fortran_order': False, 'shape': (805306368,), }") +
      std::string(64, '\x01');  // claims 6 GiB, holds 64 bytes
  expect_error([&] { load_bytes(bytes, /*give_size=*/false); }, ErrorKind::Truncated,
               {"truncated", "6442450944", "holds 64"});
}

TEST(Npy, ArrayTooLargeForAddressSpace) {
  EXPECT_THROW(npy::Array(DType::Int32, {std::size_t(1) << 62}), std::length_error);
}

TEST(Npy, FortranOrderRejected) {
  expect_error(
      [] {
        load_bytes(numpy_style("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }") +
                   std::string(16, '\0'));
      },
      ErrorKind::FortranOrder, {"Fortran", "not supported", "ascontiguousarray"});
}

TEST(Npy, TypedViewChecksDtype) {
  npy::Array a(DType::Float32, {4});
  EXPECT_EQ(a.bytes.size(), 16u);
  EXPECT_NO_THROW(a.data<float>());
  EXPECT_THROW(a.data<double>(), std::invalid_argument);
  EXPECT_THROW(a.data<std::int32_t>(), std::invalid_argument);
}

TEST(Npy, DtypeNames) {
  EXPECT_EQ(npy::parse_dtype("int32"), DType::Int32);
  EXPECT_EQ(npy::parse_dtype("<u4"), DType::UInt32);
  EXPECT_EQ(npy::parse_dtype("float64"), DType::Float64);
  EXPECT_EQ(npy::parse_dtype("|u1"), DType::UInt8);
  EXPECT_STREQ(npy::to_string(DType::Int64), "int64");
  EXPECT_STREQ(npy::descr(DType::Float32), "<f4");
  EXPECT_EQ(npy::item_size(DType::Float64), 8u);
  try {
    npy::parse_dtype("int16");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("int16"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("float64"), std::string::npos);
  }
  EXPECT_EQ(npy::shape_string({}), "()");
  EXPECT_EQ(npy::shape_string({5}), "(5,)");
  EXPECT_EQ(npy::shape_string({2, 3}), "(2, 3)");
}

TEST(Npy, Files) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("scandof_test_npy_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::vector<double> v = random_values<double>(1001, 3);
  const std::string path = (dir / "a.npy").string();
  npy::save(path, DType::Float64, {v.size()}, v.data());
  npy::Array a = npy::load(path);
  ASSERT_EQ(a.count(), v.size());
  for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(a.data<double>()[i], v[i]);
  npy::save((dir / "b.npy").string(), a);
  EXPECT_EQ(fs::file_size(dir / "b.npy"), fs::file_size(path));

  expect_error([&] { npy::load((dir / "missing.npy").string()); }, ErrorKind::Io,
               {"missing.npy", "cannot open", "No such file"});
  expect_error([&] { npy::load(dir.string()); }, ErrorKind::Io, {"directory"});
  expect_error([&] { npy::save((dir / "no" / "such" / "dir.npy").string(), a); }, ErrorKind::Io,
               {"dir.npy", "cannot create a temporary file", "No such file"});
  // A failed write (a full device) is an error, and one into a regular file never leaves it
  // half-written: the old contents survive a failure (written to a temporary, then renamed).
  if (fs::exists("/dev/full"))
    expect_error([&] { npy::save("/dev/full", a); }, ErrorKind::Io, {"/dev/full", "No space"});
  expect_error([&] { npy::save((dir / "a.npy" / "x.npy").string(), a); }, ErrorKind::Io,
               {"x.npy", "Not a directory"});
  EXPECT_EQ(npy::load(path).count(), v.size());
  expect_error([&] { npy::save(dir.string(), a); }, ErrorKind::Io, {"directory"});
  // Truncated on disk: the size is known up front, so the error comes before any big read.
  {
    std::ofstream f(dir / "cut.npy", std::ios::binary);
    std::ifstream g(path, std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(g)), std::istreambuf_iterator<char>());
    f << all.substr(0, all.size() - 5);
  }
  expect_error([&] { npy::load((dir / "cut.npy").string()); }, ErrorKind::Truncated,
               {"cut.npy", "truncated", "(1001,)"});
  fs::remove_all(dir);
}

// The benches' --out DIR: made with its parents at start-up, and a path that cannot be a folder
// fails then, with the folder named, not after the run.
TEST(FileIo, MakeOutputFolder) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("scandof_test_out_" + std::to_string(::getpid()));
  const fs::path nested = dir / "a" / "b";
  scandof::util::make_output_folder(nested.string());
  EXPECT_TRUE(fs::is_directory(nested));
  scandof::util::make_output_folder(nested.string());  // already there: fine
  scandof::util::write_text_file((nested / "x.txt").string(), "x\n");
  const std::string under_file = (nested / "x.txt" / "c").string();
  try {
    scandof::util::make_output_folder(under_file);
    ADD_FAILURE() << "no error for a folder under a file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(under_file), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}
