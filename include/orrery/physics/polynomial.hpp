// SPDX-License-Identifier: MIT
// A polynomial potential and its exact derivatives, evaluated on a lane (CPU scalar or SIMD
// vector, GPU thread):
//
//   H = |p|²/2 + V(q),   V(q) = Σ_{a+b+c ≤ N} v_abc x^a y^b z^c,
//   ∂V/∂q_i and ∂²V/∂q_i∂q_j as polynomials of degree N−1 and N−2 (derived exactly from V when
//   the text is parsed, physics/polynomial_text.hpp),
//
// each evaluated by nested Horner's rule in the coordinates' order (x outermost):
//   P(x, y, z) = P_0(y, z) + x (P_1(y, z) + x (P_2(y, z) + …)), and so on inside each P_a,
// which takes one fused multiply-add per coefficient after the first (Horner, Phil. Trans. R.
// Soc. 109, 308 (1819); Knuth, TAOCP vol. 2, §4.6.4, for its optimality in dense form).
//
// The coefficients are dense over every monomial of degree ≤ N, and N, the number of
// coordinates D and each coordinate's parity are template arguments: the evaluation is then
// straight-line code whose every coefficient sits at a compile-time offset (a GPU kernel reads
// it from the parameter bank as an operand, with no load instruction). Where V is even in a
// coordinate (V(−x) = V(x)), its shape holds only even powers of it and Horner's rule steps in
// x², and ∂V/∂x holds only odd ones (x times a polynomial in x²): half the multiply-adds in that
// coordinate. Absent monomials of a shape cost their multiply-add all the same; skipping them at
// run time would cost branches or selects per monomial on every evaluation, more than the
// multiply-adds they save for the degrees accepted here. physics/polynomial_dispatch.hpp picks
// the smallest compiled shape that holds a parsed potential.
#pragma once

#include <type_traits>
#include <utility>

#include "orrery/core/hd_math.hpp"
#include "orrery/core/static_for.hpp"

namespace orrery {

// The highest degree of V a potential may have (the parser refuses more): V, ∇V and the Hessian
// of degree 6 in three coordinates fill 462 doubles, which still pass as one kernel argument
// under the 4 KiB limit of CUDA before 12.1; degree 8 would take 1 029.
inline constexpr int kMaxPotentialDegree = 6;

// How a polynomial depends on one variable: any powers, only even powers (V(−x) = V(x), a
// reflection symmetry most potentials have in some coordinate), or only odd ones (the derivative
// of an even polynomial by that variable). Packed two bits a variable into a Parity word, the
// first variable lowest.
enum class VariableParity : unsigned { any = 0, even = 1, odd = 2 };

constexpr unsigned parity_word(VariableParity x, VariableParity y = VariableParity::any,
                               VariableParity z = VariableParity::any) {
  return static_cast<unsigned>(x) | static_cast<unsigned>(y) << 2 | static_cast<unsigned>(z) << 4;
}
constexpr VariableParity parity_of(unsigned word, int variable) {
  return static_cast<VariableParity>((word >> (2 * variable)) & 3u);
}
// The lowest power a variable of this parity takes, and the step between its powers.
constexpr int parity_first_power(unsigned word) { return (word & 3u) == 2u ? 1 : 0; }
constexpr int parity_power_step(unsigned word) { return (word & 3u) == 0u ? 1 : 2; }

// The number of monomials of degree ≤ n in d variables of the given parities.
constexpr int monomial_count(int d, int n, unsigned parity = 0) {
  if (n < 0) return 0;
  if (d == 0) return 1;
  int count = 0;
  for (int a = parity_first_power(parity); a <= n; a += parity_power_step(parity))
    count += monomial_count(d - 1, n - a, parity >> 2);
  return count;
}

// Where the coefficient of q0^power[0] q1^power[1] … sits in the dense layout, or −1 where the
// parities exclude that monomial or its degree exceeds n: blocks by the power of the first
// variable (its allowed powers in increasing order), each block the dense layout of a polynomial
// of degree n − a in the remaining variables.
constexpr int monomial_index(int d, int n, const int* power, unsigned parity = 0) {
  if (d == 0) return n >= 0 ? 0 : -1;
  const int first = parity_first_power(parity), step = parity_power_step(parity);
  if (power[0] < first || (power[0] - first) % step != 0 || power[0] > n) return -1;
  int offset = 0;
  for (int a = first; a < power[0]; a += step) offset += monomial_count(d - 1, n - a, parity >> 2);
  const int inner = monomial_index(d - 1, n - power[0], power + 1, parity >> 2);
  return inner < 0 ? -1 : offset + inner;
}

// A polynomial of degree ≤ N in D variables of the given parities, coefficients of type Real,
// trivially copyable and of fixed size, so a kernel can take it as an argument.
template <class Real, int D, int N, unsigned Parity = 0>
struct DensePolynomial {
  static_assert(D >= 1 && D <= 3, "one to three coordinates");
  static constexpr int dimension = D;
  static constexpr int degree = N;
  static constexpr unsigned parity = Parity;
  static constexpr int size = monomial_count(D, N, Parity);
  // One element at least, so an identically zero shape is still a valid type.
  Real coefficient[size > 0 ? size : 1];
};

namespace polynomial_detail {

// The offset of block k (power first + k·step of variable V) inside a block of degree N.
template <int D, int V, int N, unsigned Parity>
constexpr int block_offset(int k) {
  int offset = 0;
  for (int j = 0; j < k; ++j)
    offset += monomial_count(D - V - 1, N - parity_first_power(Parity) -
                                            j * parity_power_step(Parity), Parity >> 2);
  return offset;
}
template <int D, int V, int N, unsigned Parity>
constexpr int block_size(int k) {
  return monomial_count(D - V - 1,
                        N - parity_first_power(Parity) - k * parity_power_step(Parity),
                        Parity >> 2);
}
// The highest block that holds a monomial, −1 if none does.
template <int D, int V, int N, unsigned Parity>
constexpr int top_block() {
  int top = -1;
  for (int k = 0; parity_first_power(Parity) + k * parity_power_step(Parity) <= N; ++k)
    if (block_size<D, V, N, Parity>(k) > 0) top = k;
  return top;
}

template <int D, int V, int N, unsigned Parity, int Offset, class Real, class T>
ORRERY_HD T horner(const Real* coefficient, const T* q);

// Horner's rule over the blocks K−1 … 0 of variable V, w = q_V or q_V², from acc = block K.
template <int D, int V, int N, unsigned Parity, int Offset, int K, class Real, class T>
ORRERY_HD T horner_blocks(const Real* coefficient, const T* q, const T& w, const T& acc) {
  if constexpr (K < 0) {
    return acc;
  } else {
    constexpr int inner = N - parity_first_power(Parity) - K * parity_power_step(Parity);
    T next;
    if constexpr (block_size<D, V, N, Parity>(K) > 0)
      next = mul_add(acc, w,
                     horner<D, V + 1, inner, (Parity >> 2),
                            Offset + block_offset<D, V, N, Parity>(K)>(coefficient, q));
    else
      next = acc * w;
    return horner_blocks<D, V, N, Parity, Offset, K - 1>(coefficient, q, w, next);
  }
}

// The polynomial of degree N in q[V..D−1] whose dense layout starts at coefficient[Offset],
// unrolled by recursion so every offset is a constant. Called only for a non-empty layout.
template <int D, int V, int N, unsigned Parity, int Offset, class Real, class T>
ORRERY_HD T horner(const Real* coefficient, const T* q) {
  if constexpr (V == D) {
    return T(coefficient[Offset]);
  } else {
    constexpr int top = top_block<D, V, N, Parity>();
    constexpr int step = parity_power_step(Parity);
    // The product q_V² is the same expression in every block and component: the compiler
    // forms it once per evaluation of the gradient.
    const T w = step == 1 ? q[V] : q[V] * q[V];
    const T lead = horner<D, V + 1, N - parity_first_power(Parity) - top * step, (Parity >> 2),
                          Offset + block_offset<D, V, N, Parity>(top)>(coefficient, q);
    const T sum = horner_blocks<D, V, N, Parity, Offset, top - 1>(coefficient, q, w, lead);
    if constexpr (parity_first_power(Parity) == 1)
      return sum * q[V];
    else
      return sum;
  }
}

}  // namespace polynomial_detail

// P(q) for a lane type T (double, float, a SIMD vector of either).
template <class Real, int D, int N, unsigned Parity, class T>
ORRERY_HD T evaluate(const DensePolynomial<Real, D, N, Parity>& p, const T (&q)[D]) {
  // Coefficients of another precision than the lane's would be converted once per kernel and
  // kept in registers (hundreds for the larger shapes): pack the potential in the lane's type.
  static_assert(std::is_same_v<Real, lane_scalar_t<T>>, "coefficients in the lane's precision");
  if constexpr (DensePolynomial<Real, D, N, Parity>::size == 0)
    return T(0);
  else
    return polynomial_detail::horner<D, 0, N, Parity, 0>(p.coefficient, q);
}

// The parity word of ∂P/∂q_i for P of the given parities: even ↔ odd in q_i.
constexpr unsigned derivative_parity(unsigned parity, int i) {
  const unsigned p = (parity >> (2 * i)) & 3u;
  const unsigned d = p == 1u ? 2u : p == 2u ? 1u : 0u;
  return (parity & ~(3u << (2 * i))) | d << (2 * i);
}

// Components of different types (each derivative its own parities) in one trivially copyable
// aggregate: get<I>(list).
template <class First, class... Rest>
struct PolynomialList {
  First first;
  PolynomialList<Rest...> rest;
};
template <class First>
struct PolynomialList<First> {
  First first;
};

template <int I, class First, class... Rest>
ORRERY_HD const auto& get(const PolynomialList<First, Rest...>& list) {
  if constexpr (I == 0)
    return list.first;
  else
    return get<I - 1>(list.rest);
}
template <int I, class First, class... Rest>
ORRERY_HD auto& get(PolynomialList<First, Rest...>& list) {
  if constexpr (I == 0)
    return list.first;
  else
    return get<I - 1>(list.rest);
}

// The Hessian's entries are stored as the upper triangle, row by row: (0,0), (0,1), …,
// (D−1,D−1); entry k is (hessian_row(D, k), hessian_column(D, k)).
constexpr int hessian_index(int d, int i, int j) { return i * d - i * (i - 1) / 2 + (j - i); }
constexpr int hessian_row(int d, int k) {
  int i = 0;
  while (k >= d - i) k -= d - i, ++i;
  return i;
}
constexpr int hessian_column(int d, int k) {
  const int i = hessian_row(d, k);
  return i + (k - hessian_index(d, i, i));
}

namespace polynomial_detail {

template <class Real, int D, int N, unsigned Parity, class Seq>
struct GradientList;
template <class Real, int D, int N, unsigned Parity, int... I>
struct GradientList<Real, D, N, Parity, std::integer_sequence<int, I...>> {
  using type = PolynomialList<DensePolynomial<Real, D, N - 1, derivative_parity(Parity, I)>...>;
};

template <class Real, int D, int N, unsigned Parity, class Seq>
struct HessianList;
template <class Real, int D, int N, unsigned Parity, int... K>
struct HessianList<Real, D, N, Parity, std::integer_sequence<int, K...>> {
  using type = PolynomialList<DensePolynomial<
      Real, D, N - 2,
      derivative_parity(derivative_parity(Parity, hessian_row(D, K)), hessian_column(D, K))>...>;
};

}  // namespace polynomial_detail

// V, its gradient and its Hessian, each exact as a polynomial and rounded once per coefficient
// to Real; Parity is V's (parity_word), and each derivative has the parities that follow.
template <class Real, int D, int N, unsigned Parity = 0>
struct PolynomialPotential {
  static_assert(N >= 2, "a potential of lower degree fits the shape of degree 2");
  static constexpr int dimension = D;
  static constexpr int degree = N;
  static constexpr unsigned parity = Parity;
  static constexpr int hessian_size = D * (D + 1) / 2;
  DensePolynomial<Real, D, N, Parity> value;
  typename polynomial_detail::GradientList<Real, D, N, Parity,
                                           std::make_integer_sequence<int, D>>::type gradient;
  typename polynomial_detail::HessianList<Real, D, N, Parity,
                                          std::make_integer_sequence<int, hessian_size>>::type
      hessian;
};

template <class Real, int D, int N, unsigned Parity, class T>
ORRERY_HD T potential(const PolynomialPotential<Real, D, N, Parity>& v, const T (&q)[D]) {
  return evaluate(v.value, q);
}

// g = ∇V(q).
template <class Real, int D, int N, unsigned Parity, class T>
ORRERY_HD void gradient(const PolynomialPotential<Real, D, N, Parity>& v, const T (&q)[D],
                        T (&g)[D]) {
  static_for<0, D>([&](auto i) { g[i] = evaluate(get<i>(v.gradient), q); });
}

// h = ∂²V/∂q∂q(q), both triangles filled.
template <class Real, int D, int N, unsigned Parity, class T>
ORRERY_HD void hessian(const PolynomialPotential<Real, D, N, Parity>& v, const T (&q)[D],
                       T (&h)[D][D]) {
  static_for<0, D*(D + 1) / 2>([&](auto k) {
    constexpr int i = hessian_row(D, k), j = hessian_column(D, k);
    h[i][j] = evaluate(get<k>(v.hessian), q);
    if constexpr (i != j) h[j][i] = h[i][j];
  });
}

}  // namespace orrery
