/* tile.hpp — kernels in C++ that read like their Triton twins (C++20).
   >>cxx

       #include "tile.hpp"

       TILE_KERNEL(add_kernel, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_ptr_f32, out), (tl_i32, n))
       {
           int BLOCK = TL_META(BLOCK);
           tl::tensor offs = tl::program_id(0) * BLOCK + tl::arange(0, BLOCK);
           tl::tensor mask = offs < n;
           tl::tensor sum  = tl::load(x + offs, {.mask = mask}) + tl::load(y + offs, {.mask = mask});
           tl::store(out + offs, sum, {.mask = mask});
       }

   The kernel is built by the same IR builder as a C one (tile.h's tl_*_at
   functions; the C API stays the one the library is made of), and the
   implementation stays C11: define TILE_IMPLEMENTATION in one C file.

   Why expressions are lazy. C++ leaves the order of a call's arguments and
   of an operator's two operands open (g++ evaluates them right to left,
   clang++ left to right), and every tl_ op appends to the IR as it runs.
   So an operator or a tl:: function here does not trace anything: it
   returns a tl::expr, a small tree of what to trace, and the tree is
   traced when it is bound to a tl::tensor (a named tile), stored, or given
   to a call that must trace (tl::store, the atomics, TL_FOR's bounds),
   operands left to right, depth first -- the order of the C macros. A
   kernel gives the same IR whichever compiler built it, and the same IR as
   its C twin written with the same nesting (tests/golden.sh checks the
   tutorials under examples/cpp against their C twins' goldens).

   The rules that follow from it:
   - Name a tile with tl::tensor, not auto: `auto x = a + b;` holds an
     unevaluated expression, and using it later is a compile error that
     says so (it would be traced where it is used, not where it is written).
   - An option given by a designated initializer ({.mask = offs < n}) or a
     list ({M, K}) is held, unevaluated, and traced after the call's
     positional operands, as in C (a tree larger than TL_CXX_HELD_BYTES is
     held on the heap; should that allocation fail, it is traced at once).
   - Runtime control flow is the C macros: TL_FOR (k, lo, hi, step, carried...),
     TL_IF, TL_ELSE, TL_WHILE, with tl::tensor variables carried (a
     tl::tensor is a tl_t and nothing else, so the macros carry it in place).
     A kernel's parameters and TL_FOR's induction variable are tl::tensors.
   - Every C macro (tl_sum, tl_dot, ...) also takes tl::tensor and
     tl::expr operands; those with keyword options build C compound
     literals, which ISO C++ lacks (-pedantic refuses them), so from C++
     their tl:: spelling (or their _at function) is the one to call.
   - Errors: each tl:: call records its own line (a default argument made
     where it is called); an operator's ops take the line of the statement
     that traces them (the tl::tensor it is bound to, or the call it is given
     to). As in C, the first error is kept and the launch returns it.

   Combine functions are C++ callables, lambdas with captures included:
       tl::tensor m = tl::reduce(x, 1, [](tl::tensor a, tl::tensor b) { return tl::maximum(a, b); });
   Over several operands at once (Triton's tuples) a combine function takes
   two std::arrays, or the tiles one by one as Triton's (a0, a1, b0, b1),
   and returns one value per operand (a std::array, std::tuple or std::pair):
       auto [m, i] = tl::reduce_n({v, idx}, 1, [](auto a, auto b) {
           tl::tensor take_b = b[0] > a[0];
           return std::array{tl::where(take_b, b[0], a[0]), tl::where(take_b, b[1], a[1])};
       });
   So is the function of tl::map_elementwise (Triton's map_elementwise), on
   the elements one by one: tl::map_elementwise([](tl::tensor x) { ... }, {x}).
   A call with several results (tl::split, tl::reduce_n, tl::randint4x,
   tl::philox, tl::swizzle2d, tl::broadcast, ...) is traced where it is
   called and gives them as a std::array or std::pair of tl::tensors.
   Indexing with None, as Triton's x[:, None]:  offs(_, None) * stride. */
#ifndef TILE_HPP
#define TILE_HPP

#if !defined(__cplusplus) || __cplusplus < 202002L
#error "tile.hpp is C++20 (designated initializers); from C and older C++ include tile.h"
#endif

#include "tile.h"

#include <array>
#include <cstddef>
#include <initializer_list>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

/* the bytes an option's unevaluated expression may take (see above) */
#ifndef TL_CXX_HELD_BYTES
#define TL_CXX_HELD_BYTES 256
#endif

/* the trailing parameters of every tl:: call: where it was called */
#define TL__CXX_AT const char *tl__file = __builtin_FILE(), int tl__line = __builtin_LINE()
#define TL__CXX_HERE ::tl::here{tl__file, tl__line}

namespace tl {

/* a source location */
struct here {
    const char *file;
    int line;
};

class tensor;
template <class N> class expr;

namespace detail {
/* where the ops of an operator go when nothing else names a line: the last
   located call of this thread */
inline thread_local here last = {nullptr, 0};
inline here use(here h) { return h.file ? (last = h) : last; }

/* leaves of an expression tree */
struct leaf {
    tl_t v;
    tl_t get(here) const { return v; }
};
struct lit_i {
    long long v;
    tl_t get(here) const { return tl__cint(v); }
};
struct lit_u {
    unsigned long long v;
    tl_t get(here) const { return tl__cuint(v); }
};
struct lit_f {
    double v;
    tl_t get(here) const { return tl__cflt(v); }
};

/* an op: F(where, the children's values) once its children are traced,
   left to right (a braced list is evaluated in order) */
template <class F, class... K> struct node {
    here at; /* the call's location; file NULL: the caller's */
    F f;
    std::tuple<K...> k;
    tl_t get(here h) const { return get_(at.file ? at : h, std::index_sequence_for<K...>{}); }
    template <std::size_t... I> tl_t get_(here h, std::index_sequence<I...>) const {
        const tl_t v[sizeof...(K) + 1] = {std::get<I>(k).get(h)..., tl_t{0, 0}};
        return f(h, v);
    }
};

template <class T> struct is_expr : std::false_type {};
template <class N> struct is_expr<expr<N>> : std::true_type {};
template <class T> using bare = std::remove_cvref_t<T>;
template <class T> struct is_std_array : std::false_type {};
template <class T, std::size_t N> struct is_std_array<std::array<T, N>> : std::true_type {};
template <class T> concept tuple_like = requires { std::tuple_size<T>::value; };
template <class T> inline constexpr bool dependent_false = false;
} // namespace detail

/* A value a kernel works on (Triton's tl.tensor, a scalar or a tile): a
   handle to a traced value, nothing else, so TL_FOR carries it in place. */
class tensor {
public:
    tl_t h;
    tensor() : h{0, 0} {}
    tensor(tl_t v) : h(v) {}
    /* binding an expression traces it, here */
    template <class N>
    tensor(expr<N> &&e, TL__CXX_AT) : h(std::move(e).get(TL__CXX_HERE)) {}
    operator tl_t() const { return h; }

    tl_dtype dtype() const { return tl_dtype_of(h); }
    tl_dtype element_ty() const { return tl_element_ty(h); }
    int rank() const { return tl_rank(h); }
    int dim(int axis) const { return tl_dim(h, axis); }
    /* x.to(tl::float16): Triton's x.to(dtype) */
    auto to(tl_dtype dt, TL__CXX_AT) const;
    /* x(_, None): Triton's x[:, None] (see tl::None) */
    template <class... S> auto operator()(S... s) const;
};
static_assert(std::is_standard_layout_v<tensor> && sizeof(tensor) == sizeof(tl_t), "a tl::tensor is a tl_t");

/* Not yet traced: what an operator or tl:: function returns. Bind it to a
   tl::tensor or pass it on; it cannot be copied or used twice. */
template <class N> class expr {
public:
    N n;
    explicit expr(N node) : n(std::move(node)) {}
    expr(expr &&) = default;
    expr(const expr &) = delete;
    expr &operator=(const expr &) = delete;
    tl_t get(here h) && { return n.get(detail::use(h)); }
    auto to(tl_dtype dt, TL__CXX_AT) &&;
    template <class... S> auto operator()(S... s) &&;
};

namespace detail {
/* what a child of the tree is, by the C++ type of the operand */
inline leaf as_child(const tensor &t) { return {t.h}; }
inline leaf as_child(tl_t t) { return {t}; }
template <class N> N as_child(expr<N> &&e) { return std::move(e.n); }
template <class N> N as_child(expr<N> &) {
    static_assert(dependent_false<N>, "tl: an unevaluated expression is used by name (an `auto` variable?): declare it tl::tensor, "
                                      "so that it is traced where it is written");
    return {};
}
template <class T>
    requires std::is_integral_v<T> && std::is_signed_v<T>
lit_i as_child(T v) { return {(long long)v}; }
template <class T>
    requires std::is_integral_v<T> && std::is_unsigned_v<T> && (!std::is_same_v<T, bool>)
lit_u as_child(T v) { return {(unsigned long long)v}; }
inline lit_i as_child(bool v) { return {v ? 1 : 0}; }
template <class T>
    requires std::is_floating_point_v<T>
lit_f as_child(T v) { return {(double)v}; }
/* an enum constant is its integer, as in C */
template <class T>
    requires std::is_enum_v<T>
lit_i as_child(T v) { return {(long long)v}; }

template <class T> concept tile_value = std::is_same_v<bare<T>, tensor> || std::is_same_v<bare<T>, tl_t> || is_expr<bare<T>>::value;
template <class T> concept scalar = std::is_arithmetic_v<bare<T>> || std::is_enum_v<bare<T>>;
template <class T> concept operand = tile_value<T> || scalar<T>;

template <class F, class... A> auto make(here at, F f, A &&...a) {
    using N = node<F, decltype(as_child(std::forward<A>(a)))...>;
    return expr<N>(N{at, f, std::tuple<decltype(as_child(std::forward<A>(a)))...>(as_child(std::forward<A>(a))...)});
}

/* the value of an operand, traced now */
template <class A> tl_t value(A &&a, here h) { return as_child(std::forward<A>(a)).get(use(h)); }

/* the C builders by shape of call */
using fn1 = tl_t (*)(const char *, int, tl_t);
using fn2 = tl_t (*)(const char *, int, tl_t, tl_t);
using fn3 = tl_t (*)(const char *, int, tl_t, tl_t, tl_t);
struct call1 {
    fn1 fn;
    tl_t operator()(here h, const tl_t *v) const { return fn(h.file, h.line, v[0]); }
};
struct call2 {
    fn2 fn;
    tl_t operator()(here h, const tl_t *v) const { return fn(h.file, h.line, v[0], v[1]); }
};
struct call3 {
    fn3 fn;
    tl_t operator()(here h, const tl_t *v) const { return fn(h.file, h.line, v[0], v[1], v[2]); }
};
template <class A> auto un(here at, fn1 fn, A &&a) { return make(at, call1{fn}, std::forward<A>(a)); }
template <class A, class B> auto bin(here at, fn2 fn, A &&a, B &&b) { return make(at, call2{fn}, std::forward<A>(a), std::forward<B>(b)); }
template <class A, class B, class C> auto ter(here at, fn3 fn, A &&a, B &&b, C &&c) {
    return make(at, call3{fn}, std::forward<A>(a), std::forward<B>(b), std::forward<C>(c));
}
} // namespace detail

/* An operand held unevaluated by an option (.mask = offs < n, .other = 0)
   or a list ({M, K}): a tile, a C scalar, or a small expression. */
class held {
public:
    held() {}
    held(const tensor &t) : kind_(TILE) { v_ = t.h; }
    held(tl_t t) : kind_(TILE) { v_ = t; }
    template <class T>
        requires std::is_integral_v<T> && std::is_signed_v<T>
    held(T v) : kind_(INT) { i_ = v; }
    template <class T>
        requires std::is_integral_v<T> && std::is_unsigned_v<T> && (!std::is_same_v<T, bool>)
    held(T v) : kind_(UINT) { u_ = v; }
    held(bool v) : kind_(INT) { i_ = v ? 1 : 0; }
    template <class T>
        requires std::is_enum_v<T>
    held(T v) : kind_(INT) { i_ = (long long)v; }
    template <class T>
        requires std::is_floating_point_v<T>
    held(T v) : kind_(FLT) { f_ = (double)v; }
    template <class N> held(expr<N> &&e) : kind_(NODE) {
        if constexpr (sizeof(N) <= TL_CXX_HELD_BYTES && alignof(N) <= alignof(std::max_align_t)) {
            ::new ((void *)buf_) N(std::move(e.n));
            get_ = [](const void *p, here h) { return static_cast<const N *>(p)->get(h); };
            copy_ = [](void *d, const void *s) { ::new (d) N(*static_cast<const N *>(s)); };
            drop_ = [](void *p) { static_cast<N *>(p)->~N(); };
        } else {
            /* a larger tree on the heap, shared by the copies; without memory, traced now */
            struct box {
                long refs;
                N n;
            };
            box *b = new (std::nothrow) box{1, std::move(e.n)};
            if (!b) {
                kind_ = TILE;
                v_ = std::move(e).get(here{nullptr, 0});
                return;
            }
            ::new ((void *)buf_) box *(b);
            get_ = [](const void *p, here h) { return (*static_cast<box *const *>(p))->n.get(h); };
            copy_ = [](void *d, const void *s) {
                box *bx = *static_cast<box *const *>(s);
                bx->refs++;
                ::new (d) box *(bx);
            };
            drop_ = [](void *p) {
                box *bx = *static_cast<box **>(p);
                if (--bx->refs == 0) delete bx;
            };
        }
    }
    held(const held &o) : kind_(o.kind_), v_(o.v_), i_(o.i_), u_(o.u_), f_(o.f_), get_(o.get_), copy_(o.copy_), drop_(o.drop_) {
        if (kind_ == NODE) copy_(buf_, o.buf_);
    }
    held &operator=(const held &o) {
        if (this != &o) {
            this->~held();
            ::new ((void *)this) held(o);
        }
        return *this;
    }
    ~held() {
        if (kind_ == NODE) drop_(buf_);
    }

    bool given() const { return kind_ != NONE; }
    bool is_literal() const { return kind_ == INT || kind_ == UINT || kind_ == FLT; }
    double literal() const { return kind_ == INT ? (double)i_ : kind_ == UINT ? (double)u_ : f_; }
    /* trace it (a literal: as a weak literal, as the C macros do) */
    tl_t get(here h) const {
        switch (kind_) {
        case TILE: return v_;
        case INT: return tl__cint(i_);
        case UINT: return tl__cuint(u_);
        case FLT: return tl__cflt(f_);
        case NODE: return get_(buf_, detail::use(h));
        default: return tl_t{0, 0};
        }
    }

private:
    enum kind { NONE, TILE, INT, UINT, FLT, NODE } kind_ = NONE;
    tl_t v_ = {0, 0};
    long long i_ = 0;
    unsigned long long u_ = 0;
    double f_ = 0;
    tl_t (*get_)(const void *, here) = nullptr;
    void (*copy_)(void *, const void *) = nullptr;
    void (*drop_)(void *) = nullptr;
    alignas(std::max_align_t) unsigned char buf_[TL_CXX_HELD_BYTES] = {};
};

/* a list of operands: a shape, strides, offsets ({M, K}) */
class held_list {
public:
    held_list(std::initializer_list<held> l) {
        for (const held &h : l)
            if (n < TL_MAX_RANK + 1) v[n++] = h;
            else over = 1;
    }
    int count(here h) const {
        if (over) tl_static_assert_at(h.file, h.line, 0, "a shape, strides or offsets list", "more than TL_MAX_RANK values");
        return n;
    }
    /* traced in order, into out[] */
    void get(here h, tl_t *out) const {
        for (int i = 0; i < n; i++) out[i] = v[i].get(h);
    }
    held v[TL_MAX_RANK + 1];
    int n = 0, over = 0;
};

/* a shape or permutation given as C ints: {BLOCK_M, BLOCK_N} */
struct dims {
    tl_shape s;
    dims(std::initializer_list<int> l) : s{} {
        for (int d : l)
            if (s.rank < TL_MAX_RANK) s.dim[s.rank++] = d;
            else s.rank = TL_MAX_RANK + 1; /* the builder reports a rank past its limit */
    }
};

/* ---- dtypes, as Triton spells them ------------------------------------------------- */
inline constexpr tl_dtype int1 = TL_I1, int8 = TL_I8, int16 = TL_I16, int32 = TL_I32, int64 = TL_I64;
inline constexpr tl_dtype uint8 = TL_U8, uint16 = TL_U16, uint32 = TL_U32, uint64 = TL_U64;
inline constexpr tl_dtype float16 = TL_F16, bfloat16 = TL_BF16, float32 = TL_F32, float64 = TL_F64;
inline constexpr tl_dtype float8e4nv = TL_F8E4M3, float8e5 = TL_F8E5M2, float8e4b15 = TL_F8E4B15;
inline constexpr tl_dtype float8e4b8 = TL_F8E4B8, float8e5b16 = TL_F8E5B16;

/* ---- creation ---------------------------------------------------------------------- */
inline auto program_id(int axis, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, [axis](here h, const tl_t *) { return tl_program_id_at(h.file, h.line, axis); });
}
inline auto num_programs(int axis, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, [axis](here h, const tl_t *) { return tl_num_programs_at(h.file, h.line, axis); });
}
inline auto arange(int start, int end, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, [start, end](here h, const tl_t *) { return tl_arange_at(h.file, h.line, start, end); });
}
/* tl::full({M, N}, value, dtype) and tl::zeros({M, N}, dtype), as Triton's; {} is rank 0 */
template <class V>
    requires detail::operand<V>
auto full(dims shape, V &&value, tl_dtype dt, TL__CXX_AT) {
    tl_shape s = shape.s;
    return detail::make(TL__CXX_HERE, [s, dt](here h, const tl_t *v) { return tl_full_at(h.file, h.line, dt, v[0], s); }, std::forward<V>(value));
}
inline auto zeros(dims shape, tl_dtype dt, TL__CXX_AT) { return full(shape, 0, dt, tl__file, tl__line); }
template <class X> auto zeros_like(X &&x, TL__CXX_AT) { return detail::un(TL__CXX_HERE, tl_zeros_like_at, std::forward<X>(x)); }
template <class X, class V> auto full_like(X &&x, V &&value, TL__CXX_AT) {
    return detail::bin(TL__CXX_HERE, tl_full_like_at, std::forward<X>(x), std::forward<V>(value));
}

/* ---- elementwise ------------------------------------------------------------------- */
#define TL__CXX_UNARY(name, c)                                                                \
    template <class X>                                                                        \
        requires detail::operand<X>                                                           \
    auto name(X &&x, TL__CXX_AT) { return detail::un(TL__CXX_HERE, c, std::forward<X>(x)); }
#define TL__CXX_BINARY(name, c)                                                                                         \
    template <class A, class B>                                                                                         \
        requires detail::operand<A> && detail::operand<B>                                                              \
    auto name(A &&a, B &&b, TL__CXX_AT) { return detail::bin(TL__CXX_HERE, c, std::forward<A>(a), std::forward<B>(b)); }
TL__CXX_UNARY(exp, tl_exp_at)
TL__CXX_UNARY(exp2, tl_exp2_at)
TL__CXX_UNARY(log, tl_log_at)
TL__CXX_UNARY(log2, tl_log2_at)
TL__CXX_UNARY(sqrt, tl_sqrt_at)
TL__CXX_UNARY(sqrt_rn, tl_sqrt_at)
TL__CXX_UNARY(rsqrt, tl_rsqrt_at)
TL__CXX_UNARY(sin, tl_sin_at)
TL__CXX_UNARY(cos, tl_cos_at)
TL__CXX_UNARY(tanh, tl_tanh_at)
TL__CXX_UNARY(sigmoid, tl_sigmoid_at)
TL__CXX_UNARY(erf, tl_erf_at)
TL__CXX_UNARY(floor, tl_floor_at)
TL__CXX_UNARY(ceil, tl_ceil_at)
TL__CXX_UNARY(abs, tl_abs_at)
TL__CXX_BINARY(add, tl_add_at)
TL__CXX_BINARY(sub, tl_sub_at)
TL__CXX_BINARY(mul, tl_mul_at)
TL__CXX_BINARY(div, tl_div_at)
TL__CXX_BINARY(fdiv, tl_div_at)
TL__CXX_BINARY(div_rn, tl_div_at)
TL__CXX_BINARY(floordiv, tl_floordiv_at) /* Python's // on integers (truncating, as Triton's) */
TL__CXX_BINARY(mod, tl_mod_at)
TL__CXX_BINARY(cdiv, tl_cdiv_at)
TL__CXX_BINARY(minimum, tl_minimum_at)
TL__CXX_BINARY(maximum, tl_maximum_at)
TL__CXX_BINARY(umulhi, tl_umulhi_at)
TL__CXX_BINARY(logical_and, tl_logical_and_at)
TL__CXX_BINARY(logical_or, tl_logical_or_at)
#undef TL__CXX_UNARY
#undef TL__CXX_BINARY
/* tl::maximum(a, b, {.propagate_nan = 1}), tl::minimum, tl::clamp: a NaN wins (Triton's propagate_nan=ALL), as tl_maximum(a, b, .propagate_nan = 1) */
struct minmax_opts {
    int propagate_nan = 0;
};
namespace detail {
/* tl::maximum / tl::minimum with options: the C call (tl_maximum_opts_at or tl_minimum_opts_at) on the two operands */
struct minmax_call {
    minmax_opts o;
    tl_t (*fn)(const char *, int, tl_t, tl_t, tl_minmax_args);
    tl_t operator()(here h, const tl_t *v) const {
        tl_minmax_args m = tl_minmax_args();
        m.propagate_nan = o.propagate_nan;
        return fn(h.file, h.line, v[0], v[1], m);
    }
};
} // namespace detail
template <class A, class B>
    requires detail::operand<A> && detail::operand<B>
auto maximum(A &&a, B &&b, minmax_opts o, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, detail::minmax_call{o, tl_maximum_opts_at}, std::forward<A>(a), std::forward<B>(b));
}
template <class A, class B>
    requires detail::operand<A> && detail::operand<B>
auto minimum(A &&a, B &&b, minmax_opts o, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, detail::minmax_call{o, tl_minimum_opts_at}, std::forward<A>(a), std::forward<B>(b));
}
template <class C, class A, class B> auto where(C &&c, A &&a, B &&b, TL__CXX_AT) {
    return detail::ter(TL__CXX_HERE, tl_where_at, std::forward<C>(c), std::forward<A>(a), std::forward<B>(b));
}
template <class A, class B, class C> auto fma(A &&a, B &&b, C &&c, TL__CXX_AT) {
    return detail::ter(TL__CXX_HERE, tl_fma_at, std::forward<A>(a), std::forward<B>(b), std::forward<C>(c));
}
template <class X, class L, class H> auto clamp(X &&x, L &&lo, H &&hi, TL__CXX_AT) {
    return detail::ter(TL__CXX_HERE, tl_clamp_at, std::forward<X>(x), std::forward<L>(lo), std::forward<H>(hi));
}
namespace detail {
/* tl::clamp with options: tl_clamp_opts_at on the three operands */
struct clamp_call {
    minmax_opts o;
    tl_t operator()(here h, const tl_t *v) const {
        tl_minmax_args m = tl_minmax_args();
        m.propagate_nan = o.propagate_nan;
        return tl_clamp_opts_at(h.file, h.line, v[0], v[1], v[2], m);
    }
};
} // namespace detail
/* tl::clamp(x, lo, hi, {.propagate_nan = 1}): a NaN in x, lo or hi gives NaN, as tl_clamp(x, lo, hi, .propagate_nan = 1) */
template <class X, class L, class H>
    requires detail::operand<X> && detail::operand<L> && detail::operand<H>
auto clamp(X &&x, L &&lo, H &&hi, minmax_opts o, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, detail::clamp_call{o}, std::forward<X>(x), std::forward<L>(lo), std::forward<H>(hi));
}
/* Triton's swizzle2d: auto [new_i, new_j] = tl::swizzle2d(i, j, size_i, size_j, size_g), traced now */
template <class I, class J, class SI, class SJ, class SG>
std::pair<tensor, tensor> swizzle2d(I &&i, J &&j, SI &&size_i, SJ &&size_j, SG &&size_g, TL__CXX_AT) {
    here h = detail::use(TL__CXX_HERE);
    const tl_t v[5] = {detail::value(std::forward<I>(i), h), detail::value(std::forward<J>(j), h), detail::value(std::forward<SI>(size_i), h),
                       detail::value(std::forward<SJ>(size_j), h), detail::value(std::forward<SG>(size_g), h)};
    tl_t ni = {0, 0}, nj = {0, 0};
    tl_swizzle2d_at(h.file, h.line, v[0], v[1], v[2], v[3], v[4], &ni, &nj);
    return {tensor(ni), tensor(nj)};
}
template <class X> auto cast(X &&x, tl_dtype dt, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, [dt](here h, const tl_t *v) { return tl_cast_at(h.file, h.line, v[0], dt); }, std::forward<X>(x));
}
template <class X> auto bitcast(X &&x, tl_dtype dt, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, [dt](here h, const tl_t *v) { return tl_bitcast_at(h.file, h.line, v[0], dt); }, std::forward<X>(x));
}
template <class X> auto ptr_cast(X &&x, tl_dtype dt, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, [dt](here h, const tl_t *v) { return tl_ptr_cast_at(h.file, h.line, v[0], dt); }, std::forward<X>(x));
}
inline auto tensor::to(tl_dtype dt, const char *tl__file, int tl__line) const { return cast(*this, dt, tl__file, tl__line); }
template <class N> auto expr<N>::to(tl_dtype dt, const char *tl__file, int tl__line) && { return cast(std::move(*this), dt, tl__file, tl__line); }
/* tl::libdevice("erfinv", x), tl::libdevice("atan2", y, x), tl::libdevice("norm4d", x, y, z, w) */
template <class... A>
    requires(sizeof...(A) >= 1 && sizeof...(A) <= 4)
auto libdevice(const char *name, A &&...a) {
    return detail::make(here{nullptr, 0}, [name](here h, const tl_t *v) { return tl_libdevice_at(h.file, h.line, name, (int)sizeof...(A), v); },
                        std::forward<A>(a)...);
}
/* Triton's inline_asm_elementwise: tl::inline_asm_elementwise("add.s32 $0, $1, $2;", "=r,r,r", {x, y}, tl::int32, true, 1)
   (see tile_lang.h); the operands are traced when the call is */
inline tensor inline_asm_elementwise(const char *asm_text, const char *constraints, held_list args, tl_dtype dtype, bool is_pure, int pack,
                                     TL__CXX_AT) {
    here h = detail::use(TL__CXX_HERE);
    tl_t a[TL_MAX_RANK + 1];
    int n = args.count(h);
    args.get(h, a);
    return tensor(tl_inline_asm_elementwise_at(h.file, h.line, asm_text, constraints, n, a, dtype, is_pure, pack));
}
/* several results (Triton's tuple of dtypes; 2 to 8), traced now:
     auto [q, r] = tl::inline_asm_elementwise("div.s32 $0, $2, $3;\n\trem.s32 $1, $2, $3;", "=r,=r,r,r", {a, b},
                                              {tl::int32, tl::int32}, true, 1); */
template <std::size_t N>
std::array<tensor, N> inline_asm_elementwise(const char *asm_text, const char *constraints, held_list args, const tl_dtype (&dtypes)[N], bool is_pure,
                                             int pack, TL__CXX_AT) {
    static_assert(N >= 2 && N <= 8, "tl::inline_asm_elementwise: 2 to 8 results (one: a dtype, not a list)");
    here h = detail::use(TL__CXX_HERE);
    tl_t a[TL_MAX_RANK + 1], out[N];
    int n = args.count(h);
    args.get(h, a);
    for (std::size_t k = 0; k < N; k++) out[k] = tl_t{0, 0};
    tl_inline_asm_elementwise_n_at(h.file, h.line, asm_text, constraints, n, a, (int)N, dtypes, is_pure, pack, out);
    std::array<tensor, N> r;
    for (std::size_t k = 0; k < N; k++) r[k] = tensor(out[k]);
    return r;
}
/* Triton's softmax */
template <class X> auto softmax(X &&x, int axis, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, [axis](here h, const tl_t *v) { return tl_softmax_at(h.file, h.line, v[0], axis); }, std::forward<X>(x));
}

/* ---- shape ----------------------------------------------------------------------- */
template <class X> auto broadcast_to(X &&x, dims shape, TL__CXX_AT) {
    tl_shape s = shape.s;
    return detail::make(TL__CXX_HERE, [s](here h, const tl_t *v) { return tl_broadcast_to_at(h.file, h.line, v[0], s); }, std::forward<X>(x));
}
template <class X> auto expand_dims(X &&x, int axis, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, [axis](here h, const tl_t *v) { return tl_expand_dims_at(h.file, h.line, v[0], axis); }, std::forward<X>(x));
}
template <class X> auto reshape(X &&x, dims shape, TL__CXX_AT) {
    tl_shape s = shape.s;
    return detail::make(TL__CXX_HERE, [s](here h, const tl_t *v) { return tl_reshape_at(h.file, h.line, v[0], s); }, std::forward<X>(x));
}
template <class X> auto view(X &&x, dims shape, TL__CXX_AT) { return reshape(std::forward<X>(x), shape, tl__file, tl__line); }
template <class X> auto ravel(X &&x, TL__CXX_AT) { return detail::un(TL__CXX_HERE, tl_ravel_at, std::forward<X>(x)); }
template <class X> auto trans(X &&x, TL__CXX_AT) { return detail::un(TL__CXX_HERE, tl_trans_at, std::forward<X>(x)); }
template <class X> auto permute(X &&x, dims order, TL__CXX_AT) {
    tl_shape s = order.s;
    return detail::make(TL__CXX_HERE, [s](here h, const tl_t *v) { return tl_permute_at(h.file, h.line, v[0], s); }, std::forward<X>(x));
}
template <class X> auto flip(X &&x, int dim, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, [dim](here h, const tl_t *v) { return tl_flip_at(h.file, h.line, v[0], dim); }, std::forward<X>(x));
}
template <class A, class B> auto cat(A &&a, B &&b, TL__CXX_AT) { return detail::bin(TL__CXX_HERE, tl_cat_at, std::forward<A>(a), std::forward<B>(b)); }
template <class A, class B> auto join(A &&a, B &&b, TL__CXX_AT) { return detail::bin(TL__CXX_HERE, tl_join_at, std::forward<A>(a), std::forward<B>(b)); }
template <class A, class B> auto interleave(A &&a, B &&b, TL__CXX_AT) {
    return detail::bin(TL__CXX_HERE, tl_interleave_at, std::forward<A>(a), std::forward<B>(b));
}
/* auto [a2, b2] = tl::broadcast(a, b): both broadcast to one shape, traced now */
template <class A, class B> std::pair<tensor, tensor> broadcast(A &&a, B &&b, TL__CXX_AT) {
    here h = detail::use(TL__CXX_HERE);
    tl_t x = detail::value(std::forward<A>(a), h);
    tl_t y = detail::value(std::forward<B>(b), h);
    tl_t ra = {0, 0}, rb = {0, 0};
    tl_broadcast_at(h.file, h.line, x, y, &ra, &rb);
    return {tensor(ra), tensor(rb)};
}
/* auto [a, b] = tl::split(x): traced now */
template <class X> std::pair<tensor, tensor> split(X &&x, TL__CXX_AT) {
    tl_t a = {0, 0}, b = {0, 0};
    tl_split_at(tl__file, tl__line, detail::value(std::forward<X>(x), TL__CXX_HERE), &a, &b);
    return {tensor(a), tensor(b)};
}
template <class X> auto sort(X &&x, int dim = -1, int descending = 0, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, [dim, descending](here h, const tl_t *v) { return tl_sort_at(h.file, h.line, v[0], dim, descending); },
                        std::forward<X>(x));
}
template <class X> auto topk(X &&x, int k, int dim = -1, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, [k, dim](here h, const tl_t *v) { return tl_topk_at(h.file, h.line, v[0], k, dim); }, std::forward<X>(x));
}
template <class S, class I> auto gather(S &&src, I &&index, int axis, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, [axis](here h, const tl_t *v) { return tl_gather_at(h.file, h.line, v[0], v[1], axis); },
                        std::forward<S>(src), std::forward<I>(index));
}

/* x(_, None) is Triton's x[:, None]: _ keeps a dim, None adds one of size 1 */
struct all_t {};
struct none_t {};
inline constexpr all_t _{};
inline constexpr none_t None{};
namespace detail {
template <class... S> tl_t index(tl_t x, here h, S...) {
    constexpr bool is_none[] = {std::is_same_v<S, none_t>...};
    for (int i = 0; i < (int)sizeof...(S); i++)
        if (is_none[i]) x = tl_expand_dims_at(h.file, h.line, x, i);
    return x;
}
} // namespace detail
template <class... S> auto tensor::operator()(S... s) const {
    static_assert(((std::is_same_v<S, all_t> || std::is_same_v<S, none_t>) && ...), "tl: index a tile with tl::_ and tl::None");
    return detail::make(here{nullptr, 0}, [s...](here h, const tl_t *v) { return detail::index(v[0], h, s...); }, *this);
}
template <class N> template <class... S> auto expr<N>::operator()(S... s) && {
    static_assert(((std::is_same_v<S, all_t> || std::is_same_v<S, none_t>) && ...), "tl: index a tile with tl::_ and tl::None");
    return detail::make(here{nullptr, 0}, [s...](here h, const tl_t *v) { return detail::index(v[0], h, s...); }, std::move(*this));
}

/* ---- memory ---------------------------------------------------------------------- */
/* {.mask = m, .other = 0, .cache = TL_CACHE_CG, ...}: the fields of tl_load_args, in its order */
struct load_opts {
    held mask = {};
    held other = {}; /* a C number, or a tile */
    tl_cache cache = TL_CACHE_NONE;
    tl_evict eviction = TL_EVICT_NORMAL;
    int is_volatile = 0;
    int boundary_check = 0;
    tl_padding padding_option = TL_PAD_NONE;
};
struct store_opts {
    held mask = {};
    tl_cache cache = TL_CACHE_NONE;
    tl_evict eviction = TL_EVICT_NORMAL;
    int boundary_check = 0;
};
namespace detail {
/* the options traced after the positional operands, into the C struct */
inline tl_load_args load_args(const load_opts &o, here h) {
    tl_load_args a = tl_load_args();
    if (o.mask.given()) a.mask = o.mask.get(h);
    if (o.other.given()) {
        if (o.other.is_literal()) a.other = o.other.literal();
        else a.other_v = o.other.get(h);
    }
    a.cache = o.cache, a.eviction = o.eviction, a.is_volatile = o.is_volatile;
    a.boundary_check = o.boundary_check, a.padding_option = o.padding_option;
    return a;
}
inline tl_store_args store_args(const store_opts &o, here h) {
    tl_store_args a = tl_store_args();
    if (o.mask.given()) a.mask = o.mask.get(h);
    a.cache = o.cache, a.eviction = o.eviction, a.boundary_check = o.boundary_check;
    return a;
}
struct load_call {
    load_opts o;
    tl_t operator()(here h, const tl_t *v) const { return tl_load_at(h.file, h.line, v[0], load_args(o, h)); }
};
} // namespace detail
/* tl::load(ptrs, {.mask = m, .other = 0}) */
template <class P>
    requires detail::tile_value<P>
auto load(P &&ptrs, load_opts o = {}, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, detail::load_call{o}, std::forward<P>(ptrs));
}
/* tl::store(ptrs, value, {.mask = m}): traced now */
template <class P, class V>
    requires detail::tile_value<P> && detail::operand<V>
void store(P &&ptrs, V &&value, store_opts o = {}, TL__CXX_AT) {
    here h = detail::use(TL__CXX_HERE);
    tl_t p = detail::value(std::forward<P>(ptrs), h);
    tl_t v = detail::value(std::forward<V>(value), h);
    tl_store_at(h.file, h.line, p, v, detail::store_args(o, h));
}
/* block pointers: traced now (a tl_block_ptr is the C one, carried by TL_FOR as in C) */
inline tl_block_ptr make_block_ptr(held base, held_list shape, held_list strides, held_list offsets, dims block_shape, dims order, TL__CXX_AT) {
    here h = detail::use(TL__CXX_HERE);
    tl_t b = base.get(h), s[TL_MAX_RANK + 1], st[TL_MAX_RANK + 1], of[TL_MAX_RANK + 1];
    int ns = shape.count(h), nst = strides.count(h), nof = offsets.count(h);
    shape.get(h, s), strides.get(h, st), offsets.get(h, of);
    return tl_make_block_ptr_at(h.file, h.line, b, ns, s, nst, st, nof, of, block_shape.s, order.s);
}
inline tl_block_ptr advance(tl_block_ptr bp, held_list offsets, TL__CXX_AT) {
    here h = detail::use(TL__CXX_HERE);
    tl_t of[TL_MAX_RANK + 1];
    int n = offsets.count(h);
    offsets.get(h, of);
    return tl_advance_at(h.file, h.line, bp, n, of);
}
inline tensor load(tl_block_ptr bp, load_opts o = {}, TL__CXX_AT) {
    here h = detail::use(TL__CXX_HERE);
    return tensor(tl_load_block_at(h.file, h.line, bp, detail::load_args(o, h)));
}
template <class V> void store(tl_block_ptr bp, V &&value, store_opts o = {}, TL__CXX_AT) {
    here h = detail::use(TL__CXX_HERE);
    tl_t v = detail::value(std::forward<V>(value), h);
    tl_store_block_at(h.file, h.line, bp, v, detail::store_args(o, h));
}
/* tensor descriptors: made and used now, as the C calls */
inline tensor make_tensor_descriptor(held base, held_list shape, held_list strides, dims block_shape, TL__CXX_AT) {
    here h = detail::use(TL__CXX_HERE);
    tl_t b = base.get(h), s[TL_MAX_RANK + 1], st[TL_MAX_RANK + 1];
    int ns = shape.count(h), nst = strides.count(h);
    shape.get(h, s), strides.get(h, st);
    return tensor(tl_make_tensor_descriptor_at(h.file, h.line, b, ns, s, nst, st, block_shape.s));
}
inline tensor desc_load(held desc, held_list offsets, TL__CXX_AT) {
    here h = detail::use(TL__CXX_HERE);
    tl_t d = desc.get(h), of[TL_MAX_RANK + 1];
    int n = offsets.count(h);
    offsets.get(h, of);
    return tensor(tl_desc_load_at(h.file, h.line, d, n, of));
}
namespace detail {
template <class V> void desc_put(int kind, const held &desc, const held_list &offsets, V &&value, here h) {
    h = use(h);
    tl_t d = desc.get(h), of[TL_MAX_RANK + 1];
    int n = offsets.count(h);
    offsets.get(h, of);
    tl_t v = value(std::forward<V>(value), h);
    tl_desc_store_at(h.file, h.line, kind, d, n, of, v);
}
} // namespace detail
template <class V> void desc_store(held desc, held_list offsets, V &&value, TL__CXX_AT) {
    detail::desc_put(-1, desc, offsets, std::forward<V>(value), TL__CXX_HERE);
}
template <class V> void desc_atomic_add(held desc, held_list offsets, V &&value, TL__CXX_AT) {
    detail::desc_put(TL_ATOMIC_ADD, desc, offsets, std::forward<V>(value), TL__CXX_HERE);
}
template <class V> void desc_atomic_min(held desc, held_list offsets, V &&value, TL__CXX_AT) {
    detail::desc_put(TL_ATOMIC_MIN, desc, offsets, std::forward<V>(value), TL__CXX_HERE);
}
template <class V> void desc_atomic_max(held desc, held_list offsets, V &&value, TL__CXX_AT) {
    detail::desc_put(TL_ATOMIC_MAX, desc, offsets, std::forward<V>(value), TL__CXX_HERE);
}

/* atomics: traced now, returning the old values */
struct atomic_opts {
    held mask = {};
    tl_sem sem = TL_SEM_ACQ_REL;
    tl_scope scope = TL_SCOPE_GPU;
};
namespace detail {
inline tl_atomic_args atomic_args(const atomic_opts &o, here h) {
    tl_atomic_args a = tl_atomic_args();
    if (o.mask.given()) a.mask = o.mask.get(h);
    a.sem = o.sem, a.scope = o.scope;
    return a;
}
template <class P, class V> tensor atomic(tl_atomic_op kind, P &&ptrs, V &&val, const atomic_opts &o, here h) {
    h = use(h);
    tl_t p = value(std::forward<P>(ptrs), h);
    tl_t v = value(std::forward<V>(val), h);
    return tensor(tl_atomic_at(h.file, h.line, kind, p, v, atomic_args(o, h)));
}
} // namespace detail
#define TL__CXX_ATOMIC(name, KIND)                                                                   \
    template <class P, class V> tensor name(P &&ptrs, V &&value, atomic_opts o = {}, TL__CXX_AT) {   \
        return detail::atomic(KIND, std::forward<P>(ptrs), std::forward<V>(value), o, TL__CXX_HERE); \
    }
TL__CXX_ATOMIC(atomic_add, TL_ATOMIC_ADD)
TL__CXX_ATOMIC(atomic_max, TL_ATOMIC_MAX)
TL__CXX_ATOMIC(atomic_min, TL_ATOMIC_MIN)
TL__CXX_ATOMIC(atomic_and, TL_ATOMIC_AND)
TL__CXX_ATOMIC(atomic_or, TL_ATOMIC_OR)
TL__CXX_ATOMIC(atomic_xor, TL_ATOMIC_XOR)
TL__CXX_ATOMIC(atomic_xchg, TL_ATOMIC_XCHG)
#undef TL__CXX_ATOMIC
template <class P, class C, class V> tensor atomic_cas(P &&ptrs, C &&cmp, V &&value, atomic_opts o = {}, TL__CXX_AT) {
    here h = detail::use(TL__CXX_HERE);
    tl_t p = detail::value(std::forward<P>(ptrs), h);
    tl_t c = detail::value(std::forward<C>(cmp), h);
    tl_t v = detail::value(std::forward<V>(value), h);
    return tensor(tl_atomic_cas_at(h.file, h.line, p, c, v, detail::atomic_args(o, h)));
}

/* ---- reductions and scans ---------------------------------------------------------------- */
/* {.keep_dims = 1, .dtype = TL_F32, .propagate_nan = 1}, as tl_reduce_args */
struct reduce_opts {
    int keep_dims = 0;
    tl_dtype dtype = TL_VOID;
    int propagate_nan = 0;
};
struct scan_opts {
    int reverse = 0;
    tl_dtype dtype = TL_VOID;
};
namespace detail {
inline tl_reduce_args reduce_args(reduce_opts o) {
    tl_reduce_args a = tl_reduce_args();
    a.keep_dims = o.keep_dims, a.dtype = o.dtype, a.propagate_nan = o.propagate_nan;
    return a;
}
inline tl_scan_args scan_args(scan_opts o) {
    tl_scan_args a = tl_scan_args();
    a.reverse = o.reverse, a.dtype = o.dtype;
    return a;
}
template <class X> auto reduce_kind(tl_reduce_op kind, X &&x, int axis, reduce_opts o, here at) {
    return make(at, [kind, axis, o](here h, const tl_t *v) { return tl_reduce_at(h.file, h.line, kind, v[0], axis, reduce_args(o)); }, std::forward<X>(x));
}
template <class X> auto scan_kind(tl_reduce_op kind, X &&x, int axis, scan_opts o, here at) {
    return make(at, [kind, axis, o](here h, const tl_t *v) { return tl_scan_at(h.file, h.line, kind, v[0], axis, scan_args(o)); }, std::forward<X>(x));
}
} // namespace detail
#define TL__CXX_REDUCE(name, KIND)                                                                                        \
    template <class X> auto name(X &&x, int axis = TL_ALL, reduce_opts o = {}, TL__CXX_AT) {                             \
        return detail::reduce_kind(KIND, std::forward<X>(x), axis, o, TL__CXX_HERE);                                      \
    }
TL__CXX_REDUCE(sum, TL_REDUCE_SUM)
TL__CXX_REDUCE(max, TL_REDUCE_MAX)
TL__CXX_REDUCE(min, TL_REDUCE_MIN)
TL__CXX_REDUCE(argmax, TL_REDUCE_ARGMAX)
TL__CXX_REDUCE(argmin, TL_REDUCE_ARGMIN)
TL__CXX_REDUCE(xor_sum, TL_REDUCE_XOR_SUM)
TL__CXX_REDUCE(prod, TL_REDUCE_PROD)
TL__CXX_REDUCE(reduce_or, TL_REDUCE_OR)
TL__CXX_REDUCE(reduce_and, TL_REDUCE_AND)
#undef TL__CXX_REDUCE
template <class X> auto cumsum(X &&x, int axis = 0, scan_opts o = {}, TL__CXX_AT) {
    return detail::scan_kind(TL_REDUCE_SUM, std::forward<X>(x), axis, o, TL__CXX_HERE);
}
template <class X> auto cumprod(X &&x, int axis = 0, scan_opts o = {}, TL__CXX_AT) {
    return detail::scan_kind(TL_REDUCE_PROD, std::forward<X>(x), axis, o, TL__CXX_HERE);
}

namespace detail {
/* a C++ combine function behind the C one (a plain function pointer): the
   callable and where the call was are this thread's while the C builder
   traces it, nested calls each restoring the one around them */
struct combine_ctx {
    const void *fn;
    here at;
    tl_t (*call)(const combine_ctx *, tl_t, tl_t);
};
inline thread_local const combine_ctx *combine_now = nullptr;
inline tl_t combine_tramp(tl_t a, tl_t b) {
    const combine_ctx *c = combine_now;
    return c ? c->call(c, a, b) : tl_t{-1, 0};
}
template <class R> tl_t result_of(R &&r, here h) { return value(std::forward<R>(r), h); }
template <class F> tl_t combine_call(const combine_ctx *c, tl_t a, tl_t b) {
    const F &f = *static_cast<const F *>(c->fn);
    return result_of(f(tensor(a), tensor(b)), c->at);
}
template <class F> struct combine_guard {
    combine_ctx ctx;
    const combine_ctx *prev;
    combine_guard(const F &f, here h) : ctx{&f, h, &combine_call<F>}, prev(combine_now) { combine_now = &ctx; }
    ~combine_guard() { combine_now = prev; }
};
} // namespace detail
/* tl::reduce(x, axis, [](tl::tensor a, tl::tensor b) { return ...; }, {.keep_dims = 1}) */
template <class X, class F>
    requires(!detail::is_std_array<detail::bare<X>>::value)
auto reduce(X &&x, int axis, F f, reduce_opts o = {}, TL__CXX_AT) {
    return detail::make(
        TL__CXX_HERE,
        [axis, f, o](here h, const tl_t *v) {
            detail::combine_guard<F> g(f, h);
            return tl_reduce_fn_at(h.file, h.line, v[0], axis, detail::combine_tramp, detail::reduce_args(o));
        },
        std::forward<X>(x));
}
/* tl::associative_scan(x, axis, fn, {.reverse = 1}) */
template <class X, class F>
    requires(!detail::is_std_array<detail::bare<X>>::value)
auto associative_scan(X &&x, int axis, F f, scan_opts o = {}, TL__CXX_AT) {
    return detail::make(
        TL__CXX_HERE,
        [axis, f, o](here h, const tl_t *v) {
            detail::combine_guard<F> g(f, h);
            return tl_associative_scan_at(h.file, h.line, v[0], axis, detail::combine_tramp, detail::scan_args(o));
        },
        std::forward<X>(x));
}

/* Several operands at once (Triton's tuples: 1 to 8 tiles of one shape),
   traced now, the results in a std::array:
     auto [m, i] = tl::reduce_n({v, idx}, axis, fn, {.keep_dims = 1});
     auto [a, b] = tl::associative_scan_n(std::array<tl::tensor, 2>{x, y}, axis, fn, {.reverse = 1});
   fn(a, b) takes two std::array<tl::tensor, N>, or fn(a0, ..., b0, ...)
   the 2N tiles, and returns N values (a std::array, std::tuple or
   std::pair; a tile when N is 1), traced in order. tl::reduce and
   tl::associative_scan take the operands the same way, as Triton's. */
namespace detail {
struct combine_n_ctx {
    const void *fn;
    here at;
    void (*call)(const combine_n_ctx *, const tl_t *, const tl_t *, tl_t *);
};
inline thread_local const combine_n_ctx *combine_n_now = nullptr;
/* out[k] left {0, 0} (no function): the C builder reports a missing value */
inline void combine_n_tramp(const tl_t *a, const tl_t *b, tl_t *out) {
    if (const combine_n_ctx *c = combine_n_now) c->call(c, a, b, out);
}
template <std::size_t> using tensor_at = tensor;
template <std::size_t N, class F, std::size_t... I> auto combine_n_invoke(const F &f, const tl_t *a, const tl_t *b, std::index_sequence<I...>) {
    if constexpr (std::is_invocable_v<const F &, std::array<tensor, N>, std::array<tensor, N>>)
        return f(std::array<tensor, N>{tensor(a[I])...}, std::array<tensor, N>{tensor(b[I])...});
    else if constexpr (std::is_invocable_v<const F &, tensor_at<I>..., tensor_at<I>...>)
        return f(tensor(a[I])..., tensor(b[I])...);
    else
        static_assert(dependent_false<F>, "tl: a combine function of N operands takes (std::array<tl::tensor, N> a, std::array<tl::tensor, N> b), "
                                          "or the 2N tiles (a0, ..., b0, ...) as Triton's");
}
template <std::size_t N, class R, std::size_t... I> void combine_n_results(R &&r, here h, tl_t *out, std::index_sequence<I...>) {
    using B = bare<R>;
    if constexpr (operand<B>) {
        static_assert(N == 1, "tl: a combine function of N operands returns N values (a std::array, std::tuple or std::pair)");
        out[0] = value(std::forward<R>(r), h);
    } else if constexpr (!tuple_like<B>) {
        static_assert(dependent_false<R>, "tl: a combine function of N operands returns N values (a std::array, std::tuple or std::pair)");
    } else {
        static_assert(std::tuple_size<B>::value == N, "tl: a combine function of N operands returns N values, one per operand");
        ((out[I] = value(std::get<I>(std::forward<R>(r)), h)), ...);
    }
}
template <std::size_t N, class F> void combine_n_call(const combine_n_ctx *c, const tl_t *a, const tl_t *b, tl_t *out) {
    const F &f = *static_cast<const F *>(c->fn);
    combine_n_results<N>(combine_n_invoke<N>(f, a, b, std::make_index_sequence<N>{}), c->at, out, std::make_index_sequence<N>{});
}
template <std::size_t N, class F> struct combine_n_guard {
    combine_n_ctx ctx;
    const combine_n_ctx *prev;
    combine_n_guard(const F &f, here h) : ctx{&f, h, &combine_n_call<N, F>}, prev(combine_n_now) { combine_n_now = &ctx; }
    ~combine_n_guard() { combine_n_now = prev; }
};
template <std::size_t N> std::array<tensor, N> tiles_of(const tl_t *v) {
    std::array<tensor, N> r;
    for (std::size_t k = 0; k < N; k++) r[k] = tensor(v[k]);
    return r;
}
template <std::size_t N, class F> std::array<tensor, N> reduce_n(const tensor *xs, int axis, const F &f, reduce_opts o, here h) {
    static_assert(N >= 1 && N <= 8, "tl::reduce_n: 1 to 8 operands");
    h = use(h);
    tl_t in[N], out[N];
    for (std::size_t k = 0; k < N; k++) in[k] = xs[k].h, out[k] = tl_t{0, 0};
    combine_n_guard<N, F> g(f, h);
    tl_reduce_n_at(h.file, h.line, (int)N, in, axis, combine_n_tramp, out, reduce_args(o));
    return tiles_of<N>(out);
}
template <std::size_t N, class F> std::array<tensor, N> scan_n(const tensor *xs, int axis, const F &f, scan_opts o, here h) {
    static_assert(N >= 1 && N <= 8, "tl::associative_scan_n: 1 to 8 operands");
    h = use(h);
    tl_t in[N], out[N];
    for (std::size_t k = 0; k < N; k++) in[k] = xs[k].h, out[k] = tl_t{0, 0};
    combine_n_guard<N, F> g(f, h);
    tl_associative_scan_n_at(h.file, h.line, (int)N, in, axis, combine_n_tramp, out, scan_args(o));
    return tiles_of<N>(out);
}
} // namespace detail
/* tl::reduce_n({a, b}, axis, fn) or tl::reduce_n(std::array<tl::tensor, 2>{a, b}, axis, fn, {.keep_dims = 1}) */
template <std::size_t N, class F> std::array<tensor, N> reduce_n(const tensor (&xs)[N], int axis, F f, reduce_opts o = {}, TL__CXX_AT) {
    return detail::reduce_n<N>(xs, axis, f, o, TL__CXX_HERE);
}
template <std::size_t N, class F> std::array<tensor, N> reduce_n(const std::array<tensor, N> &xs, int axis, F f, reduce_opts o = {}, TL__CXX_AT) {
    return detail::reduce_n<N>(xs.data(), axis, f, o, TL__CXX_HERE);
}
template <std::size_t N, class F> std::array<tensor, N> reduce(const tensor (&xs)[N], int axis, F f, reduce_opts o = {}, TL__CXX_AT) {
    return detail::reduce_n<N>(xs, axis, f, o, TL__CXX_HERE);
}
template <std::size_t N, class F> std::array<tensor, N> reduce(const std::array<tensor, N> &xs, int axis, F f, reduce_opts o = {}, TL__CXX_AT) {
    return detail::reduce_n<N>(xs.data(), axis, f, o, TL__CXX_HERE);
}
/* tl::associative_scan_n({a, b}, axis, fn, {.reverse = 1}) */
template <std::size_t N, class F> std::array<tensor, N> associative_scan_n(const tensor (&xs)[N], int axis, F f, scan_opts o = {}, TL__CXX_AT) {
    return detail::scan_n<N>(xs, axis, f, o, TL__CXX_HERE);
}
template <std::size_t N, class F>
std::array<tensor, N> associative_scan_n(const std::array<tensor, N> &xs, int axis, F f, scan_opts o = {}, TL__CXX_AT) {
    return detail::scan_n<N>(xs.data(), axis, f, o, TL__CXX_HERE);
}
template <std::size_t N, class F> std::array<tensor, N> associative_scan(const tensor (&xs)[N], int axis, F f, scan_opts o = {}, TL__CXX_AT) {
    return detail::scan_n<N>(xs, axis, f, o, TL__CXX_HERE);
}
template <std::size_t N, class F>
std::array<tensor, N> associative_scan(const std::array<tensor, N> &xs, int axis, F f, scan_opts o = {}, TL__CXX_AT) {
    return detail::scan_n<N>(xs.data(), axis, f, o, TL__CXX_HERE);
}

/* Triton's map_elementwise: a C++ callable (captures included) applied to
   each element of the operands broadcast to one shape, built on rank-0
   tl::tensors, so it may branch on them (TL_IF, TL_FOR, TL_WHILE run only
   what an element takes):
     tl::tensor y = tl::map_elementwise([](tl::tensor x, tl::tensor alpha) {
         tl::tensor r = x;
         TL_IF (x <= 0, r) { r = alpha * (tl::exp(x) - 1); }
         return r;
     }, {x, alpha});
   The function takes the operands' elements one by one, or one std::array
   of them; several results come back as a std::array of tl::tensors (it
   returns a std::array, std::tuple or std::pair). P elements of the last
   dim at once, as Triton's pack: tl::map_elementwise<P>(fn, {a, b}), fn
   taking (a0, .., a(P-1), b0, ..) and returning P values a result (r0's P
   first). The operands are held by the list and traced with the call; a
   call of one result is traced where it is bound, of several where it is
   written. See tile_lang.h for what the function may do. */
namespace detail {
struct map_ctx {
    const void *fn;
    here at;
    void (*call)(const map_ctx *, const tl_t *, tl_t *);
};
inline thread_local const map_ctx *map_now = nullptr;
/* out[] left {0, 0} (no function): the C builder reports a missing value */
inline void map_tramp(const tl_t *x, tl_t *out) {
    if (const map_ctx *c = map_now) c->call(c, x, out);
}
template <std::size_t M, class F, std::size_t... I> decltype(auto) map_invoke(const F &f, const tl_t *x, std::index_sequence<I...>) {
    if constexpr (std::is_invocable_v<const F &, std::array<tensor, M>>)
        return f(std::array<tensor, M>{tensor(x[I])...});
    else if constexpr (std::is_invocable_v<const F &, tensor_at<I>...>)
        return f(tensor(x[I])...);
    else
        static_assert(dependent_false<F>, "tl::map_elementwise: the function takes the operands' elements one by one (a0, .., b0, .. with a pack), "
                                          "or one std::array<tl::tensor, operands x pack>");
}
/* how many values the function returns: one tile, or a tuple's */
template <class R> constexpr std::size_t map_values() {
    if constexpr (operand<bare<R>>) return 1;
    else if constexpr (tuple_like<bare<R>>) return std::tuple_size<bare<R>>::value;
    else return 0;
}
template <std::size_t M, class F> using map_ret = decltype(map_invoke<M>(std::declval<const F &>(), nullptr, std::make_index_sequence<M>{}));
template <std::size_t K, class R, std::size_t... I> void map_results(R &&r, here h, tl_t *out, std::index_sequence<I...>) {
    if constexpr (operand<bare<R>>) out[0] = value(std::forward<R>(r), h);
    else ((out[I] = value(std::get<I>(std::forward<R>(r)), h)), ...);
}
template <std::size_t M, std::size_t K, class F> void map_call(const map_ctx *c, const tl_t *x, tl_t *out) {
    const F &f = *static_cast<const F *>(c->fn);
    map_results<K>(map_invoke<M>(f, x, std::make_index_sequence<M>{}), c->at, out, std::make_index_sequence<K>{});
}
template <std::size_t M, std::size_t K, class F> struct map_guard {
    map_ctx ctx;
    const map_ctx *prev;
    map_guard(const F &f, here h) : ctx{&f, h, &map_call<M, K, F>}, prev(map_now) { map_now = &ctx; }
    ~map_guard() { map_now = prev; }
};
/* the call, its operands traced first (in order); R results into out */
template <int P, std::size_t N, class F> void map_trace(const F &f, const held *xs, tl_t *out, here h) {
    constexpr std::size_t K = map_values<map_ret<N * P, F>>();
    static_assert(K >= 1 && K % P == 0, "tl::map_elementwise: the function returns one value, or a std::array, std::tuple or std::pair of them: "
                                         "pack values a result");
    tl_t in[N];
    for (std::size_t k = 0; k < N; k++) in[k] = xs[k].get(h);
    map_guard<N * P, K, F> g(f, h);
    tl_map_args o = tl_map_args();
    o.pack = P;
    tl_map_elementwise_n_at(h.file, h.line, map_tramp, (int)N, in, (int)(K / P), out, o);
}
} // namespace detail
template <int P = 1, std::size_t N, class F> auto map_elementwise(F f, const held (&xs)[N], TL__CXX_AT) {
    static_assert(N >= 1 && P >= 1 && P <= 16 && (P & (P - 1)) == 0, "tl::map_elementwise: operands, and a pack that is a power of two up to 16");
    constexpr std::size_t R = detail::map_values<detail::map_ret<N * P, F>>() / P;
    std::array<held, N> ops;
    for (std::size_t k = 0; k < N; k++) ops[k] = xs[k];
    if constexpr (R == 1) {
        return detail::make(TL__CXX_HERE, [f, ops](here h, const tl_t *) {
            tl_t out[1] = {{0, 0}};
            detail::map_trace<P, N>(f, ops.data(), out, h);
            return out[0];
        });
    } else {
        here h = detail::use(TL__CXX_HERE);
        tl_t out[R > 0 ? R : 1];
        for (std::size_t r = 0; r < R; r++) out[r] = tl_t{0, 0};
        detail::map_trace<P, N>(f, ops.data(), out, h);
        return detail::tiles_of<R>(out);
    }
}

/* Triton's histogram: tl::histogram(x, num_bins, {.mask = m}) (see tile_lang.h) */
struct histogram_opts {
    held mask = {};
};
template <class X> auto histogram(X &&x, int num_bins, histogram_opts o = {}, TL__CXX_AT) {
    return detail::make(
        TL__CXX_HERE,
        [num_bins, o](here h, const tl_t *v) {
            tl_histogram_args a = tl_histogram_args();
            if (o.mask.given()) a.mask = o.mask.get(h);
            return tl_histogram_at(h.file, h.line, v[0], num_bins, a);
        },
        std::forward<X>(x));
}

/* ---- dot ------------------------------------------------------------------------- */
struct dot_opts {
    tl_precision input_precision = TL_PRECISION_DEFAULT;
    tl_dtype out_dtype = TL_VOID;
    int max_num_imprecise_acc = 0;   /* fp8 inputs; 0: no limit */
};
namespace detail {
struct dot_call {
    dot_opts o;
    bool has_acc;
    tl_t operator()(here h, const tl_t *v) const {
        tl_dot_args a = tl_dot_args();
        if (has_acc) a.acc = v[2];
        a.input_precision = o.input_precision, a.out_dtype = o.out_dtype, a.max_num_imprecise_acc = o.max_num_imprecise_acc;
        return tl_dot_at(h.file, h.line, v[0], v[1], a);
    }
};
} // namespace detail
/* tl::dot(a, b), tl::dot(a, b, acc), tl::dot(a, b, acc, {.input_precision = TL_PRECISION_IEEE}) */
template <class A, class B> auto dot(A &&a, B &&b, dot_opts o = {}, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, detail::dot_call{o, false}, std::forward<A>(a), std::forward<B>(b));
}
template <class A, class B, class C>
    requires detail::tile_value<C>
auto dot(A &&a, B &&b, C &&acc, dot_opts o = {}, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, detail::dot_call{o, true}, std::forward<A>(a), std::forward<B>(b), std::forward<C>(acc));
}

/* Triton's dot_scaled, with its option names: lhs_k_pack / rhs_k_pack false
   is the C API's .lhs_m_pack / .rhs_n_pack (an e2m1 operand packed along M / N) */
struct dot_scaled_opts {
    bool fast_math = false;
    bool lhs_k_pack = true;
    bool rhs_k_pack = true;
    tl_dtype out_dtype = TL_VOID;
};
namespace detail {
struct dot_scaled_call {
    tl_fmt lhs_format, rhs_format;
    dot_scaled_opts o;
    bool has_acc;
    tl_t operator()(here h, const tl_t *v) const {
        tl_dot_scaled_args a = tl_dot_scaled_args();
        if (has_acc) a.acc = v[4];
        a.fast_math = o.fast_math, a.lhs_m_pack = !o.lhs_k_pack, a.rhs_n_pack = !o.rhs_k_pack, a.out_dtype = o.out_dtype;
        return tl_dot_scaled_at(h.file, h.line, v[0], v[1], lhs_format, v[2], v[3], rhs_format, a);
    }
};
} // namespace detail
/* tl::dot_scaled(a, a_scale, TL_FMT_E2M1, b, TL_NO_SCALE, TL_FMT_BF16), then acc, then {.fast_math = true, ...} */
template <class L, class LS, class R, class RS>
auto dot_scaled(L &&lhs, LS &&lhs_scale, tl_fmt lhs_format, R &&rhs, RS &&rhs_scale, tl_fmt rhs_format, dot_scaled_opts o = {}, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, detail::dot_scaled_call{lhs_format, rhs_format, o, false}, std::forward<L>(lhs), std::forward<LS>(lhs_scale),
                        std::forward<R>(rhs), std::forward<RS>(rhs_scale));
}
template <class L, class LS, class R, class RS, class C>
    requires detail::tile_value<C>
auto dot_scaled(L &&lhs, LS &&lhs_scale, tl_fmt lhs_format, R &&rhs, RS &&rhs_scale, tl_fmt rhs_format, C &&acc, dot_scaled_opts o = {},
                TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, detail::dot_scaled_call{lhs_format, rhs_format, o, true}, std::forward<L>(lhs), std::forward<LS>(lhs_scale),
                        std::forward<R>(rhs), std::forward<RS>(rhs_scale), std::forward<C>(acc));
}

/* ---- random numbers (Triton's; see tile_lang.h) ------------------------------------ */
struct rand_opts {
    int n_rounds = 0;
};
namespace detail {
template <class S, class O> auto random1(int kind, S &&seed, O &&offset, rand_opts o, here at) {
    return make(at, [kind, o](here h, const tl_t *v) {
        tl_rand_args a = tl_rand_args();
        a.n_rounds = o.n_rounds;
        return tl_random_at(h.file, h.line, kind, v[0], v[1], nullptr, a);
    }, std::forward<S>(seed), std::forward<O>(offset));
}
} // namespace detail
template <class S, class O> auto randint(S &&seed, O &&offset, rand_opts o = {}, TL__CXX_AT) {
    return detail::random1(TL__RAND_INT, std::forward<S>(seed), std::forward<O>(offset), o, TL__CXX_HERE);
}
template <class S, class O> auto rand(S &&seed, O &&offset, rand_opts o = {}, TL__CXX_AT) {
    return detail::random1(TL__RAND_U, std::forward<S>(seed), std::forward<O>(offset), o, TL__CXX_HERE);
}
template <class S, class O> auto randn(S &&seed, O &&offset, rand_opts o = {}, TL__CXX_AT) {
    return detail::random1(TL__RAND_N, std::forward<S>(seed), std::forward<O>(offset), o, TL__CXX_HERE);
}

/* the four words, traced now: auto [r0, r1, r2, r3] = tl::randint4x(seed, offset, {.n_rounds = 7}) */
namespace detail {
template <class S, class O> std::array<tensor, 4> random4(int kind, S &&seed, O &&offset, rand_opts o, here h) {
    h = use(h);
    tl_t s = value(std::forward<S>(seed), h);
    tl_t off = value(std::forward<O>(offset), h);
    tl_t out[4] = {};
    tl_rand_args a = tl_rand_args();
    a.n_rounds = o.n_rounds;
    tl_random_at(h.file, h.line, kind, s, off, out, a);
    return tiles_of<4>(out);
}
} // namespace detail
template <class S, class O> std::array<tensor, 4> randint4x(S &&seed, O &&offset, rand_opts o = {}, TL__CXX_AT) {
    return detail::random4(TL__RAND_INT4, std::forward<S>(seed), std::forward<O>(offset), o, TL__CXX_HERE);
}
template <class S, class O> std::array<tensor, 4> rand4x(S &&seed, O &&offset, rand_opts o = {}, TL__CXX_AT) {
    return detail::random4(TL__RAND_U4, std::forward<S>(seed), std::forward<O>(offset), o, TL__CXX_HERE);
}
template <class S, class O> std::array<tensor, 4> randn4x(S &&seed, O &&offset, rand_opts o = {}, TL__CXX_AT) {
    return detail::random4(TL__RAND_N4, std::forward<S>(seed), std::forward<O>(offset), o, TL__CXX_HERE);
}
/* Philox of four counters, as Triton's philox(seed, c0, c1, c2, c3, n_rounds): traced now, seed first */
template <class S, class C0, class C1, class C2, class C3>
std::array<tensor, 4> philox(S &&seed, C0 &&c0, C1 &&c1, C2 &&c2, C3 &&c3, rand_opts o = {}, TL__CXX_AT) {
    here h = detail::use(TL__CXX_HERE);
    tl_t s = detail::value(std::forward<S>(seed), h);
    const tl_t c[4] = {detail::value(std::forward<C0>(c0), h), detail::value(std::forward<C1>(c1), h), detail::value(std::forward<C2>(c2), h),
                       detail::value(std::forward<C3>(c3), h)};
    tl_t out[4] = {};
    tl_rand_args a = tl_rand_args();
    a.n_rounds = o.n_rounds;
    tl_philox_at(h.file, h.line, s, c, out, a);
    return detail::tiles_of<4>(out);
}
template <class X> auto uint_to_uniform_float(X &&x, TL__CXX_AT) { return detail::un(TL__CXX_HERE, tl_uint_to_uniform_float_at, std::forward<X>(x)); }
/* Box-Muller, traced now: auto [n1, n2] = tl::pair_uniform_to_normal(u1, u2) */
template <class A, class B> std::pair<tensor, tensor> pair_uniform_to_normal(A &&u1, B &&u2, TL__CXX_AT) {
    here h = detail::use(TL__CXX_HERE);
    tl_t a = detail::value(std::forward<A>(u1), h);
    tl_t b = detail::value(std::forward<B>(u2), h);
    tl_t n1 = {0, 0}, n2 = {0, 0};
    tl_pair_uniform_to_normal_at(h.file, h.line, a, b, &n1, &n2);
    return {tensor(n1), tensor(n2)};
}

/* ---- hints and checks -------------------------------------------------------------- */
template <class X> auto multiple_of(X &&x, int n, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, [n](here h, const tl_t *v) { return tl_hint_at(h.file, h.line, 0, v[0], n); }, std::forward<X>(x));
}
template <class X> auto max_contiguous(X &&x, int n, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, [n](here h, const tl_t *v) { return tl_hint_at(h.file, h.line, 1, v[0], n); }, std::forward<X>(x));
}
template <class X> auto max_constancy(X &&x, int n, TL__CXX_AT) {
    return detail::make(TL__CXX_HERE, [n](here h, const tl_t *v) { return tl_hint_at(h.file, h.line, 2, v[0], n); }, std::forward<X>(x));
}
/* traced now */
template <class C> void device_assert(C &&cond, const char *msg, TL__CXX_AT) {
    here h = detail::use(TL__CXX_HERE);
    tl_assert_at(h.file, h.line, detail::value(std::forward<C>(cond), h), msg);
}
inline void debug_barrier(TL__CXX_AT) { tl_debug_barrier_at(tl__file, tl__line); }
template <class X> void static_print(const char *label, X &&x, TL__CXX_AT) {
    here h = detail::use(TL__CXX_HERE);
    tl_static_print_at(h.file, h.line, label, detail::value(std::forward<X>(x), h));
}
/* Triton's assume: the compiler may take cond as true (the interpreter checks
   it, and names `text` where it does not hold); traced now */
template <class C> void assume(C &&cond, const char *text = "cond", TL__CXX_AT) {
    here h = detail::use(TL__CXX_HERE);
    tl_assume_at(h.file, h.line, detail::value(std::forward<C>(cond), h), text);
}
/* a C string with the line it is written on: the first parameter of a call
   whose operands are a pack (a default argument cannot follow one) */
struct located_text {
    const char *text;
    here at;
    located_text(const char *t, TL__CXX_AT) : text(t), at{tl__file, tl__line} {}
};
namespace detail {
template <std::size_t... I> void print_(here h, const char *prefix, const tl_t *v, std::index_sequence<I...>) {
    tl_print_at(h.file, h.line, (int)sizeof...(I), prefix, v[I]...);
}
} // namespace detail
/* Triton's device_print (and print): tl::device_print("x:", x, y), each element
   with its program and index; the operands traced now, left to right */
template <class... A>
    requires(detail::operand<A> && ...)
void device_print(located_text prefix, A &&...a) {
    here h = detail::use(prefix.at);
    const tl_t v[sizeof...(A) + 1] = {detail::value(std::forward<A>(a), h)..., tl_t{0, 0}};
    detail::print_(h, prefix.text, v, std::index_sequence_for<A...>{});
}
template <class... A>
    requires(detail::operand<A> && ...)
void print(located_text prefix, A &&...a) {
    device_print(prefix, std::forward<A>(a)...);
}
/* a scope inside the kernel, recorded while a profile runs (see tile_lang.h) */
inline void profile_enter(const char *name, TL__CXX_AT) { tl_profile_at(tl__file, tl__line, name, 0); }
inline void profile_exit(const char *name, TL__CXX_AT) { tl_profile_at(tl__file, tl__line, name, 1); }

/* ---- the operators ------------------------------------------------------------------
   Each is the tl_ op of the same name (/ is true division as Python's; use
   tl::floordiv for //; & | ^ are bitwise, and on masks logical; && and ||
   are not overloaded, as Python's `and`/`or` are not Triton's). */
namespace ops {
template <class A, class B> concept tile_pair = detail::operand<A> && detail::operand<B> && (detail::tile_value<A> || detail::tile_value<B>);
#define TL__CXX_OP(op, c)                                                                                    \
    template <class A, class B>                                                                              \
        requires tile_pair<A, B>                                                                             \
    auto operator op(A &&a, B &&b) { return detail::bin(here{nullptr, 0}, c, std::forward<A>(a), std::forward<B>(b)); }
TL__CXX_OP(+, tl_add_at)
TL__CXX_OP(-, tl_sub_at)
TL__CXX_OP(*, tl_mul_at)
TL__CXX_OP(/, tl_div_at)
TL__CXX_OP(%, tl_mod_at)
TL__CXX_OP(<, tl_lt_at)
TL__CXX_OP(<=, tl_le_at)
TL__CXX_OP(>, tl_gt_at)
TL__CXX_OP(>=, tl_ge_at)
TL__CXX_OP(==, tl_eq_at)
TL__CXX_OP(!=, tl_ne_at)
TL__CXX_OP(&, tl_and_at)
TL__CXX_OP(|, tl_or_at)
TL__CXX_OP(^, tl_xor_at)
TL__CXX_OP(<<, tl_shl_at)
TL__CXX_OP(>>, tl_shr_at)
#undef TL__CXX_OP
template <class X>
    requires detail::tile_value<X>
auto operator-(X &&x) { return detail::un(here{nullptr, 0}, tl_neg_at, std::forward<X>(x)); }
template <class X>
    requires detail::tile_value<X>
auto operator~(X &&x) { return detail::un(here{nullptr, 0}, tl_not_at, std::forward<X>(x)); }
/* x += y is x = x + y, traced now */
#define TL__CXX_OPEQ(op, c)                                                                  \
    template <class B>                                                                       \
        requires detail::operand<B>                                                          \
    tensor &operator op(tensor &x, B &&b) {                                                  \
        here h = detail::use(here{nullptr, 0});                                              \
        x = tensor(c(h.file, h.line, x.h, detail::value(std::forward<B>(b), h)));            \
        return x;                                                                            \
    }
TL__CXX_OPEQ(+=, tl_add_at)
TL__CXX_OPEQ(-=, tl_sub_at)
TL__CXX_OPEQ(*=, tl_mul_at)
TL__CXX_OPEQ(/=, tl_div_at)
TL__CXX_OPEQ(%=, tl_mod_at)
TL__CXX_OPEQ(&=, tl_and_at)
TL__CXX_OPEQ(|=, tl_or_at)
TL__CXX_OPEQ(^=, tl_xor_at)
#undef TL__CXX_OPEQ
} // namespace ops
/* found by argument-dependent lookup for tl::tensor and tl::expr operands;
   a bare tl_t (from the C API) needs `using namespace tl::ops` */
using ops::operator+, ops::operator-, ops::operator*, ops::operator/, ops::operator%, ops::operator<, ops::operator<=, ops::operator>,
    ops::operator>=, ops::operator==, ops::operator!=, ops::operator&, ops::operator|, ops::operator^, ops::operator<<, ops::operator>>,
    ops::operator~, ops::operator+=, ops::operator-=, ops::operator*=, ops::operator/=, ops::operator%=, ops::operator&=,
    ops::operator|=, ops::operator^=;
} // namespace tl

/* a kernel's parameters are tl::tensors in C++ (found by the operators'
   argument-dependent lookup), and so is TL_FOR's induction variable: the C
   macros with the one type changed */
#undef TILE__P_BODYDECL_
#define TILE__P_BODYDECL_(type, name) tl::tensor name
#undef TL_FOR
#define TL_FOR(iv, lo, hi, ...)                                                                     \
    for (tl::tensor iv, *tl__loop_once = (tl__push(TL__V(lo)), tl__push(TL__V(hi)),                 \
                            tl__push(TL__V(TILE__FIRST(__VA_ARGS__))),                              \
                            (tl::tensor *)(void *)tl__for_begin(TL__HERE, &iv.h, TILE__CARRIED(__VA_ARGS__))); \
         tl__loop_once; tl__loop_once = (tl::tensor *)(void *)tl__for_end(TL__HERE, (tl__frame *)(void *)tl__loop_once))

/* TL_LOOP_OPTIONS(.num_stages = 4, .warp_specialize = 1) before a TL_FOR, as
   in C (a C++ struct with defaults, so that g++ takes the fields left out) */
namespace tl {
struct loop_opts {
    int num_stages = 0;
    int warp_specialize = 0;
    int flatten = 0;
    int disallow_acc_multi_buffer = 0;
};
namespace detail {
inline void loop_options(const loop_opts &o, const char *file, int line) {
    tl_loop_options c = tl_loop_options();
    c.num_stages = o.num_stages, c.warp_specialize = o.warp_specialize, c.flatten = o.flatten;
    c.disallow_acc_multi_buffer = o.disallow_acc_multi_buffer;
    tl__loop_options(file, line, c);
}
} // namespace detail
} // namespace tl
#undef TL_LOOP_OPTIONS
#define TL_LOOP_OPTIONS(...) ::tl::detail::loop_options(::tl::loop_opts{__VA_ARGS__}, __FILE__, __LINE__)

/* the C macros take tl::tensor and tl::expr operands too (TL__V) */
static inline tl_t tl__v(const tl::tensor &t) { return t.h; }
template <class N> tl_t tl__v(tl::expr<N> &&e) { return std::move(e).get(tl::here{nullptr, 0}); }

/* launch options from C++: tl::opts({.grid = {n}, .meta = {{"BLOCK", 1024}}, .num_warps = 8})
   where C writes TILE_OPTS(...): tile_launch's fields, in its order (as C++
   asks of designated initializers), and the launch line recorded */
namespace tl {
struct launch {
    unsigned grid[3] = {0, 0, 0};
    tile_meta meta[TILE_MAX_META] = {};
    int num_warps = 0;
    int num_stages = 0;
    void *stream = nullptr;
    struct tile_autotuner *tune = nullptr;
    double flops = 0, bytes = 0;
};
class opts {
public:
    opts(const launch &l, TL__CXX_AT) : o_() {
        for (int i = 0; i < 3; i++) o_.grid[i] = l.grid[i];
        for (int i = 0; i < TILE_MAX_META; i++) o_.meta[i] = l.meta[i];
        o_.num_warps = l.num_warps, o_.num_stages = l.num_stages, o_.stream = l.stream, o_.tune = l.tune;
        o_.flops = l.flops, o_.bytes = l.bytes;
        o_.file = tl__file;
        o_.line = tl__line;
    }
    operator const tile_launch *() const { return &o_; }
    const tile_launch *get() const { return &o_; }

private:
    tile_launch o_;
};
} // namespace tl

#endif /* TILE_HPP */
