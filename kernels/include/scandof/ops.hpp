// Scan operators. Any associative binary functor works with the templated API (scan.cuh); it need
// not be commutative: the library always combines as op(earlier, later). The built-in ones carry
// their identity so callers need not pass it.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "scandof/config.hpp"

namespace scandof {

struct Sum {
  template <class T>
  SCANDOF_HD T operator()(const T& a, const T& b) const { return a + b; }
  template <class T>
  static constexpr T identity() { return T(0); }
};

// Min and Max follow numpy's minimum/maximum (and so np.minimum.accumulate): a NaN operand makes
// the result NaN, and it stays NaN for the rest of a scan. Any NaN wins whatever its position, so
// the operators stay associative and every scan algorithm (tree, look-back, CUB) gives the same
// answer. `b != b` is true only for NaN; for integers the compiler drops it. It costs one
// compare-and-select per combine for floats, hidden behind memory traffic (scans are bandwidth
// bound). The identity (+inf / -inf) is still neutral: op(inf, NaN) and op(NaN, inf) are NaN.
struct Min {
  template <class T>
  SCANDOF_HD T operator()(const T& a, const T& b) const { return (b < a || b != b) ? b : a; }
  template <class T>
  static constexpr T identity() {
    return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                : std::numeric_limits<T>::max();
  }
};

struct Max {
  template <class T>
  SCANDOF_HD T operator()(const T& a, const T& b) const { return (a < b || b != b) ? b : a; }
  template <class T>
  static constexpr T identity() {
    return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                : std::numeric_limits<T>::lowest();
  }
};

enum class OpKind : int { Sum = 0, Min = 1, Max = 2 };
const char* to_string(OpKind op);

// The affine map x -> a*x + b over uint32 (wrapping). Composition is associative but not
// commutative, which makes it the test operator that catches swapped operands.
struct Affine {
  uint32_t a, b;
  SCANDOF_HD bool operator==(const Affine& o) const { return a == o.a && b == o.b; }
  SCANDOF_HD bool operator!=(const Affine& o) const { return !(*this == o); }
};

// op(f, g) = "apply f, then g": (g o f)(x) = g.a*(f.a*x + f.b) + g.b.
struct ComposeAffine {
  SCANDOF_HD Affine operator()(const Affine& f, const Affine& g) const {
    return Affine{g.a * f.a, g.a * f.b + g.b};
  }
  template <class T = Affine>
  static constexpr Affine identity() { return Affine{1u, 0u}; }
};

// The identity of a built-in or user operator: Op::identity<T>().
template <class Op, class T>
constexpr T identity_of() {
  return Op::template identity<T>();
}

}  // namespace scandof
