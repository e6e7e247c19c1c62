/* tile_lang.h — the kernel language. Included by tile.h; do not include it alone.
   >>lang

   Why it is shaped this way: a kernel body is ordinary C that runs once per
   build, on the host. Every tl_* call appends an op to the kernel's IR and
   returns a handle (tl_t). So C `if`/`for` over meta-parameters specialize
   the kernel for free, and runtime control flow needs the TL_FOR / TL_IF /
   TL_WHILE macros, which trace their body once into a region.

   Every macro here records __FILE__/__LINE__, evaluates each argument once,
   and calls one named function (tl_add -> tl_add_at) that a user can also
   call and a debugger can stop in. Scalars mix with tiles: tl_add(x, 1),
   tl_mul(x, 0.5). A C literal is "weakly typed" as in Triton: it takes the
   dtype of the tile it meets when its kind allows.

   Errors inside a body do not stop the body: the first error is kept (with
   its id and line), later ops on the broken value are skipped silently, and
   the launch returns the error. */
#ifndef TILE_LANG_H
#define TILE_LANG_H

#ifndef TILE_H
#error "include tile.h, not tile_lang.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- parameter types of TILE_KERNEL: (token, host C type, dtype, pointee) */
#define TILE__PT_tl_ptr_i1     uint8_t *,     TL_PTR, TL_I1
#define TILE__PT_tl_ptr_i8     int8_t *,      TL_PTR, TL_I8
#define TILE__PT_tl_ptr_i16    int16_t *,     TL_PTR, TL_I16
#define TILE__PT_tl_ptr_i32    int32_t *,     TL_PTR, TL_I32
#define TILE__PT_tl_ptr_i64    int64_t *,     TL_PTR, TL_I64
#define TILE__PT_tl_ptr_u8     uint8_t *,     TL_PTR, TL_U8
#define TILE__PT_tl_ptr_u16    uint16_t *,    TL_PTR, TL_U16
#define TILE__PT_tl_ptr_u32    uint32_t *,    TL_PTR, TL_U32
#define TILE__PT_tl_ptr_u64    uint64_t *,    TL_PTR, TL_U64
#define TILE__PT_tl_ptr_f16    tile_f16 *,    TL_PTR, TL_F16
#define TILE__PT_tl_ptr_bf16   tile_bf16 *,   TL_PTR, TL_BF16
#define TILE__PT_tl_ptr_f32    float *,       TL_PTR, TL_F32
#define TILE__PT_tl_ptr_f64    double *,      TL_PTR, TL_F64
#define TILE__PT_tl_ptr_f8e4m3 tile_f8e4m3 *, TL_PTR, TL_F8E4M3
#define TILE__PT_tl_ptr_f8e5m2 tile_f8e5m2 *, TL_PTR, TL_F8E5M2
#define TILE__PT_tl_ptr_f8e4b15 tile_f8e4b15 *, TL_PTR, TL_F8E4B15
#define TILE__PT_tl_ptr_f8e4b8 tile_f8e4b8 *, TL_PTR, TL_F8E4B8
#define TILE__PT_tl_ptr_f8e5b16 tile_f8e5b16 *, TL_PTR, TL_F8E5B16
#define TILE__PT_tl_ptr        tile_ptr,      TL_PTR, TL_VOID   /* the dtype given at launch */
#define TILE__PT_tl_desc       const tile_tensor_desc *, TL_DESC, TL_VOID   /* a host descriptor */
#define TILE__PT_tl_i32        int32_t,       TL_I32, TL_VOID
#define TILE__PT_tl_i64        int64_t,       TL_I64, TL_VOID
#define TILE__PT_tl_u32        uint32_t,      TL_U32, TL_VOID
#define TILE__PT_tl_u64        uint64_t,      TL_U64, TL_VOID
#define TILE__PT_tl_f32        float,         TL_F32, TL_VOID
#define TILE__PT_tl_f64        double,        TL_F64, TL_VOID

/* ---- preprocessor helpers ------------------------------------------------ */
#define TILE__CAT(a, b) TILE__CAT_(a, b)
#define TILE__CAT_(a, b) a##b
#define TILE__EXPAND(x) x
/* the number of arguments, 1 to 64 (65: a token that names the limit in
   the compiler's error) */
#define TILE__NARG(...) TILE__EXPAND(TILE__NARG_(__VA_ARGS__, more_than_64_arguments, 64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0))
#define TILE__NARG_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37, a38, a39, a40, a41, a42, a43, a44, a45, a46, a47, a48, a49, a50, a51, a52, a53, a54, a55, a56, a57, a58, a59, a60, a61, a62, a63, a64, a65, n, ...) n
/* ONE when given one argument, MANY otherwise */
#define TILE__ONE(...) TILE__EXPAND(TILE__NARG_(__VA_ARGS__, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, ONE, 0))
#define TILE__FIRST(...) TILE__EXPAND(TILE__FIRST_(__VA_ARGS__, 0))
#define TILE__FIRST_(a, ...) a
/* the arguments after the first, each preceded by a comma (nothing if none) */
#define TILE__REST(...) TILE__CAT(TILE__REST_, TILE__ONE(__VA_ARGS__))(__VA_ARGS__)
#define TILE__REST_ONE(a)
#define TILE__REST_MANY(a, ...) , __VA_ARGS__
/* the first two arguments and what follows them */
#define TILE__SECOND(...) TILE__EXPAND(TILE__SECOND_(__VA_ARGS__, 0, 0))
#define TILE__SECOND_(a, b, ...) b
#define TILE__REST2(...) TILE__CAT(TILE__REST2_, TILE__ONE(TILE__DROP1(__VA_ARGS__)))(__VA_ARGS__)
#define TILE__DROP1(a, ...) __VA_ARGS__
#define TILE__REST2_ONE(a, b)
#define TILE__REST2_MANY(a, b, ...) , __VA_ARGS__
#define TILE__THIRD(...) TILE__EXPAND(TILE__THIRD_(__VA_ARGS__, 0, 0, 0))
#define TILE__THIRD_(a, b, c, ...) c
#define TILE__REST3(...) TILE__CAT(TILE__REST3_, TILE__ONE(TILE__DROP2(__VA_ARGS__)))(__VA_ARGS__)
#define TILE__DROP2(a, b, ...) __VA_ARGS__
#define TILE__REST3_ONE(a, b, c)
#define TILE__REST3_MANY(a, b, c, ...) , __VA_ARGS__

/* apply M to each argument, joined by commas (1..64 arguments) */
#define TILE__MAP(M, ...) TILE__CAT(TILE__MAP_, TILE__NARG(__VA_ARGS__))(M, __VA_ARGS__)
#define TILE__MAP_1(M, a) M(a)
#define TILE__MAP_2(M, a, ...) M(a), TILE__MAP_1(M, __VA_ARGS__)
#define TILE__MAP_3(M, a, ...) M(a), TILE__MAP_2(M, __VA_ARGS__)
#define TILE__MAP_4(M, a, ...) M(a), TILE__MAP_3(M, __VA_ARGS__)
#define TILE__MAP_5(M, a, ...) M(a), TILE__MAP_4(M, __VA_ARGS__)
#define TILE__MAP_6(M, a, ...) M(a), TILE__MAP_5(M, __VA_ARGS__)
#define TILE__MAP_7(M, a, ...) M(a), TILE__MAP_6(M, __VA_ARGS__)
#define TILE__MAP_8(M, a, ...) M(a), TILE__MAP_7(M, __VA_ARGS__)
#define TILE__MAP_9(M, a, ...) M(a), TILE__MAP_8(M, __VA_ARGS__)
#define TILE__MAP_10(M, a, ...) M(a), TILE__MAP_9(M, __VA_ARGS__)
#define TILE__MAP_11(M, a, ...) M(a), TILE__MAP_10(M, __VA_ARGS__)
#define TILE__MAP_12(M, a, ...) M(a), TILE__MAP_11(M, __VA_ARGS__)
#define TILE__MAP_13(M, a, ...) M(a), TILE__MAP_12(M, __VA_ARGS__)
#define TILE__MAP_14(M, a, ...) M(a), TILE__MAP_13(M, __VA_ARGS__)
#define TILE__MAP_15(M, a, ...) M(a), TILE__MAP_14(M, __VA_ARGS__)
#define TILE__MAP_16(M, a, ...) M(a), TILE__MAP_15(M, __VA_ARGS__)
#define TILE__MAP_17(M, a, ...) M(a), TILE__MAP_16(M, __VA_ARGS__)
#define TILE__MAP_18(M, a, ...) M(a), TILE__MAP_17(M, __VA_ARGS__)
#define TILE__MAP_19(M, a, ...) M(a), TILE__MAP_18(M, __VA_ARGS__)
#define TILE__MAP_20(M, a, ...) M(a), TILE__MAP_19(M, __VA_ARGS__)
#define TILE__MAP_21(M, a, ...) M(a), TILE__MAP_20(M, __VA_ARGS__)
#define TILE__MAP_22(M, a, ...) M(a), TILE__MAP_21(M, __VA_ARGS__)
#define TILE__MAP_23(M, a, ...) M(a), TILE__MAP_22(M, __VA_ARGS__)
#define TILE__MAP_24(M, a, ...) M(a), TILE__MAP_23(M, __VA_ARGS__)
#define TILE__MAP_25(M, a, ...) M(a), TILE__MAP_24(M, __VA_ARGS__)
#define TILE__MAP_26(M, a, ...) M(a), TILE__MAP_25(M, __VA_ARGS__)
#define TILE__MAP_27(M, a, ...) M(a), TILE__MAP_26(M, __VA_ARGS__)
#define TILE__MAP_28(M, a, ...) M(a), TILE__MAP_27(M, __VA_ARGS__)
#define TILE__MAP_29(M, a, ...) M(a), TILE__MAP_28(M, __VA_ARGS__)
#define TILE__MAP_30(M, a, ...) M(a), TILE__MAP_29(M, __VA_ARGS__)
#define TILE__MAP_31(M, a, ...) M(a), TILE__MAP_30(M, __VA_ARGS__)
#define TILE__MAP_32(M, a, ...) M(a), TILE__MAP_31(M, __VA_ARGS__)
#define TILE__MAP_33(M, a, ...) M(a), TILE__MAP_32(M, __VA_ARGS__)
#define TILE__MAP_34(M, a, ...) M(a), TILE__MAP_33(M, __VA_ARGS__)
#define TILE__MAP_35(M, a, ...) M(a), TILE__MAP_34(M, __VA_ARGS__)
#define TILE__MAP_36(M, a, ...) M(a), TILE__MAP_35(M, __VA_ARGS__)
#define TILE__MAP_37(M, a, ...) M(a), TILE__MAP_36(M, __VA_ARGS__)
#define TILE__MAP_38(M, a, ...) M(a), TILE__MAP_37(M, __VA_ARGS__)
#define TILE__MAP_39(M, a, ...) M(a), TILE__MAP_38(M, __VA_ARGS__)
#define TILE__MAP_40(M, a, ...) M(a), TILE__MAP_39(M, __VA_ARGS__)
#define TILE__MAP_41(M, a, ...) M(a), TILE__MAP_40(M, __VA_ARGS__)
#define TILE__MAP_42(M, a, ...) M(a), TILE__MAP_41(M, __VA_ARGS__)
#define TILE__MAP_43(M, a, ...) M(a), TILE__MAP_42(M, __VA_ARGS__)
#define TILE__MAP_44(M, a, ...) M(a), TILE__MAP_43(M, __VA_ARGS__)
#define TILE__MAP_45(M, a, ...) M(a), TILE__MAP_44(M, __VA_ARGS__)
#define TILE__MAP_46(M, a, ...) M(a), TILE__MAP_45(M, __VA_ARGS__)
#define TILE__MAP_47(M, a, ...) M(a), TILE__MAP_46(M, __VA_ARGS__)
#define TILE__MAP_48(M, a, ...) M(a), TILE__MAP_47(M, __VA_ARGS__)
#define TILE__MAP_49(M, a, ...) M(a), TILE__MAP_48(M, __VA_ARGS__)
#define TILE__MAP_50(M, a, ...) M(a), TILE__MAP_49(M, __VA_ARGS__)
#define TILE__MAP_51(M, a, ...) M(a), TILE__MAP_50(M, __VA_ARGS__)
#define TILE__MAP_52(M, a, ...) M(a), TILE__MAP_51(M, __VA_ARGS__)
#define TILE__MAP_53(M, a, ...) M(a), TILE__MAP_52(M, __VA_ARGS__)
#define TILE__MAP_54(M, a, ...) M(a), TILE__MAP_53(M, __VA_ARGS__)
#define TILE__MAP_55(M, a, ...) M(a), TILE__MAP_54(M, __VA_ARGS__)
#define TILE__MAP_56(M, a, ...) M(a), TILE__MAP_55(M, __VA_ARGS__)
#define TILE__MAP_57(M, a, ...) M(a), TILE__MAP_56(M, __VA_ARGS__)
#define TILE__MAP_58(M, a, ...) M(a), TILE__MAP_57(M, __VA_ARGS__)
#define TILE__MAP_59(M, a, ...) M(a), TILE__MAP_58(M, __VA_ARGS__)
#define TILE__MAP_60(M, a, ...) M(a), TILE__MAP_59(M, __VA_ARGS__)
#define TILE__MAP_61(M, a, ...) M(a), TILE__MAP_60(M, __VA_ARGS__)
#define TILE__MAP_62(M, a, ...) M(a), TILE__MAP_61(M, __VA_ARGS__)
#define TILE__MAP_63(M, a, ...) M(a), TILE__MAP_62(M, __VA_ARGS__)
#define TILE__MAP_64(M, a, ...) M(a), TILE__MAP_63(M, __VA_ARGS__)

/* ---- TILE_KERNEL ----------------------------------------------------------- */
#define TILE__P_HOSTTYPE(t, h, d, e) h
#define TILE__P_DTYPE(t, h, d, e) d
#define TILE__P_ELEM(t, h, d, e) e
#define TILE__P_INFO(pair) TILE__P_INFO_ pair
#define TILE__P_INFO_(type, name) TILE__P_INFO2(name, TILE__PT_##type)
#define TILE__P_INFO2(name, ...) TILE__P_INFO3(name, __VA_ARGS__)
#define TILE__P_INFO3(name, h, d, e) {#name, d, e}
#define TILE__P_BODYDECL(pair) TILE__P_BODYDECL_ pair
#define TILE__P_BODYDECL_(type, name) tl_t name
#define TILE__P_HOSTDECL(pair) TILE__P_HOSTDECL_ pair
#define TILE__P_HOSTDECL_(type, name) TILE__P_HOSTDECL2(name, TILE__PT_##type)
#define TILE__P_HOSTDECL2(name, ...) TILE__P_HOSTDECL3(name, __VA_ARGS__)
#define TILE__P_HOSTDECL3(name, h, d, e) h name
#define TILE__P_ARG(pair) TILE__P_ARG_ pair
#define TILE__P_ARG_(type, name) TILE__P_ARG2(name, TILE__PT_##type)
#define TILE__P_ARG2(name, ...) TILE__P_ARG3(name, __VA_ARGS__)
#define TILE__P_ARG3(name, h, d, e) tile__arg_##d(name)
#define TILE__P_NAME(pair) TILE__P_NAME_ pair
#define TILE__P_NAME_(type, name) name
#define TILE__P_INDEX_ARGS(...) TILE__CAT(TILE__IDX_, TILE__NARG(__VA_ARGS__))
#define TILE__IDX_1 a[0]
#define TILE__IDX_2 TILE__IDX_1, a[1]
#define TILE__IDX_3 TILE__IDX_2, a[2]
#define TILE__IDX_4 TILE__IDX_3, a[3]
#define TILE__IDX_5 TILE__IDX_4, a[4]
#define TILE__IDX_6 TILE__IDX_5, a[5]
#define TILE__IDX_7 TILE__IDX_6, a[6]
#define TILE__IDX_8 TILE__IDX_7, a[7]
#define TILE__IDX_9 TILE__IDX_8, a[8]
#define TILE__IDX_10 TILE__IDX_9, a[9]
#define TILE__IDX_11 TILE__IDX_10, a[10]
#define TILE__IDX_12 TILE__IDX_11, a[11]
#define TILE__IDX_13 TILE__IDX_12, a[12]
#define TILE__IDX_14 TILE__IDX_13, a[13]
#define TILE__IDX_15 TILE__IDX_14, a[14]
#define TILE__IDX_16 TILE__IDX_15, a[15]
#define TILE__IDX_17 TILE__IDX_16, a[16]
#define TILE__IDX_18 TILE__IDX_17, a[17]
#define TILE__IDX_19 TILE__IDX_18, a[18]
#define TILE__IDX_20 TILE__IDX_19, a[19]
#define TILE__IDX_21 TILE__IDX_20, a[20]
#define TILE__IDX_22 TILE__IDX_21, a[21]
#define TILE__IDX_23 TILE__IDX_22, a[22]
#define TILE__IDX_24 TILE__IDX_23, a[23]
#define TILE__IDX_25 TILE__IDX_24, a[24]
#define TILE__IDX_26 TILE__IDX_25, a[25]
#define TILE__IDX_27 TILE__IDX_26, a[26]
#define TILE__IDX_28 TILE__IDX_27, a[27]
#define TILE__IDX_29 TILE__IDX_28, a[28]
#define TILE__IDX_30 TILE__IDX_29, a[29]
#define TILE__IDX_31 TILE__IDX_30, a[30]
#define TILE__IDX_32 TILE__IDX_31, a[31]
#define TILE__IDX_33 TILE__IDX_32, a[32]
#define TILE__IDX_34 TILE__IDX_33, a[33]
#define TILE__IDX_35 TILE__IDX_34, a[34]
#define TILE__IDX_36 TILE__IDX_35, a[35]
#define TILE__IDX_37 TILE__IDX_36, a[36]
#define TILE__IDX_38 TILE__IDX_37, a[37]
#define TILE__IDX_39 TILE__IDX_38, a[38]
#define TILE__IDX_40 TILE__IDX_39, a[39]
#define TILE__IDX_41 TILE__IDX_40, a[40]
#define TILE__IDX_42 TILE__IDX_41, a[41]
#define TILE__IDX_43 TILE__IDX_42, a[42]
#define TILE__IDX_44 TILE__IDX_43, a[43]
#define TILE__IDX_45 TILE__IDX_44, a[44]
#define TILE__IDX_46 TILE__IDX_45, a[45]
#define TILE__IDX_47 TILE__IDX_46, a[46]
#define TILE__IDX_48 TILE__IDX_47, a[47]
#define TILE__IDX_49 TILE__IDX_48, a[48]
#define TILE__IDX_50 TILE__IDX_49, a[49]
#define TILE__IDX_51 TILE__IDX_50, a[50]
#define TILE__IDX_52 TILE__IDX_51, a[51]
#define TILE__IDX_53 TILE__IDX_52, a[52]
#define TILE__IDX_54 TILE__IDX_53, a[53]
#define TILE__IDX_55 TILE__IDX_54, a[54]
#define TILE__IDX_56 TILE__IDX_55, a[55]
#define TILE__IDX_57 TILE__IDX_56, a[56]
#define TILE__IDX_58 TILE__IDX_57, a[57]
#define TILE__IDX_59 TILE__IDX_58, a[58]
#define TILE__IDX_60 TILE__IDX_59, a[59]
#define TILE__IDX_61 TILE__IDX_60, a[60]
#define TILE__IDX_62 TILE__IDX_61, a[61]
#define TILE__IDX_63 TILE__IDX_62, a[62]
#define TILE__IDX_64 TILE__IDX_63, a[63]

/* host argument -> tile_arg, by the parameter's dtype */
static inline tile_arg tile__arg_ptr(const void *p) { tile_arg a; a.p = (void *)(uintptr_t)p; a.elem = TL_VOID; return a; }
static inline tile_arg tile__arg_int(int64_t i) { tile_arg a; a.i = i; a.elem = TL_VOID; return a; }
static inline tile_arg tile__arg_flt(double f) { tile_arg a; a.f = f; a.elem = TL_VOID; return a; }
static inline tile_arg tile__arg_tptr(tile_ptr p) { tile_arg a; a.p = p.p; a.elem = p.dtype; return a; }
static inline tile_arg tile__arg_desc(const tile_tensor_desc *d) { tile_arg a; a.p = (void *)(uintptr_t)d; a.elem = TL_DESC; return a; }
#define tile__arg_TL_DESC(x) tile__arg_desc(x)
#ifdef __cplusplus
}
static inline tile_arg tile__arg_ptr(tile_ptr p) { return tile__arg_tptr(p); }
extern "C" {
#define tile__arg_TL_PTR(x) tile__arg_ptr(x)
#else
#define tile__arg_TL_PTR(x) _Generic((x), tile_ptr: tile__arg_tptr, default: tile__arg_ptr)(x)
#endif
#define tile__arg_TL_I32(x) tile__arg_int(x)
#define tile__arg_TL_I64(x) tile__arg_int(x)
#define tile__arg_TL_U32(x) tile__arg_int((int64_t)(x))
#define tile__arg_TL_U64(x) tile__arg_int((int64_t)(x))
#define tile__arg_TL_F32(x) tile__arg_flt(x)
#define tile__arg_TL_F64(x) tile__arg_flt(x)

/* TILE_PTR(p, TL_F16): the argument of a tl_ptr parameter, memory and its
   dtype. TILE_PTR(p) takes the dtype from p's C type (float * is f32,
   tile_bf16 * is bf16, uint8_t * is u8, ...); a void * needs the dtype. */
#define TILE_PTR(...) TILE__CAT(TILE__PTR_, TILE__ONE(__VA_ARGS__))(__VA_ARGS__)
#define TILE__PTR_MANY(p, dtype) tile_ptr_of((p), (dtype))
#define TILE__PTR_ONE(p) tile_ptr_of((p), TILE__DTYPE_OF_PTR(p))
/* the C element types TILE_PTR(p) knows, with their dtypes */
#define TILE__PTR_DTYPES(X)                                                                                            \
    X(int8_t, TL_I8) X(int16_t, TL_I16) X(int32_t, TL_I32) X(int64_t, TL_I64) X(uint8_t, TL_U8) X(uint16_t, TL_U16)    \
    X(uint32_t, TL_U32) X(uint64_t, TL_U64) X(tile_f16, TL_F16) X(tile_bf16, TL_BF16) X(float, TL_F32) X(double, TL_F64) \
    X(tile_f8e4m3, TL_F8E4M3) X(tile_f8e5m2, TL_F8E5M2) X(tile_f8e4b15, TL_F8E4B15) X(tile_f8e4b8, TL_F8E4B8)       \
    X(tile_f8e5b16, TL_F8E5B16)
#ifdef __cplusplus
}
#define TILE__PTR_DT_OVERLOAD(T, D) \
    static inline tl_dtype tile__dtype_of_ptr(const T *) { return D; }
TILE__PTR_DTYPES(TILE__PTR_DT_OVERLOAD)
#undef TILE__PTR_DT_OVERLOAD
extern "C" {
#define TILE__DTYPE_OF_PTR(p) tile__dtype_of_ptr(p)
#else
#define TILE__PTR_DT_CASE(T, D) , T * : D, const T * : D
#define TILE__DTYPE_OF_PTR(p) _Generic((p) TILE__PTR_DTYPES(TILE__PTR_DT_CASE))
#endif

/* TILE_KERNEL(name, (type, param)...) { body }
   Defines `tile_status name(const tile_launch *opts, <C params>)` and the
   builder body. Parameter types: tl_ptr_<dtype> for every dtype, tl_ptr
   (a pointer whose dtype is given at launch: the launcher takes a tile_ptr,
   TILE_PTR(p, TL_F16), and each dtype is its own specialization), tl_desc
   (a tensor descriptor made on the host: the launcher takes a
   const tile_tensor_desc *; its dtype, rank and block shape specialize the
   kernel), and the scalars tl_i32, tl_i64, tl_u32, tl_u64, tl_f32, tl_f64. At most 64
   parameters (the builder's limit); a 65th is a compile error naming
   more_than_64_arguments. */
#define TILE_KERNEL(name, ...)                                                          \
    static void name##__body(TILE__MAP(TILE__P_BODYDECL, __VA_ARGS__));                 \
    static void name##__trace(const tl_t *a) { name##__body(TILE__P_INDEX_ARGS(__VA_ARGS__)); } \
    static const tile_param name##__params[] = {TILE__MAP(TILE__P_INFO, __VA_ARGS__)};  \
    static inline tile_status name(const tile_launch *opts,                             \
                                   TILE__MAP(TILE__P_HOSTDECL, __VA_ARGS__));           \
    static tile_kernel name##__kernel = {#name, __FILE__, __LINE__,                     \
        (int)(sizeof name##__params / sizeof name##__params[0]), name##__params,        \
        name##__trace, (void (*)(void))name, NULL};                                     \
    static inline tile_status name(const tile_launch *opts,                             \
                                   TILE__MAP(TILE__P_HOSTDECL, __VA_ARGS__)) {          \
        const tile_arg args[] = {TILE__MAP(TILE__P_ARG, __VA_ARGS__)};                  \
        return tile_launch_kernel(&name##__kernel, opts, args);                         \
    }                                                                                   \
    static void name##__body(TILE__MAP(TILE__P_BODYDECL, __VA_ARGS__))

/* The tile_kernel object of a kernel defined with TILE_KERNEL. */
#define TILE_KERNEL_OF(name) (&name##__kernel)

/* ---- meta-parameters --------------------------------------------------- */
/* TL_META(BLOCK): the launch's meta-parameter "BLOCK", a plain C int while
   the IR is built. Missing -> TILE_ERR_META (and 1, so tracing goes on). */
#define TL_META(name) tl_meta_at(__FILE__, __LINE__, #name)
/* TL_META_OR(BLOCK, 128): the same, with a default. */
#define TL_META_OR(name, dflt) tl_meta_or_at(__FILE__, __LINE__, #name, (dflt))
int tl_meta_at(const char *file, int line, const char *name);
int tl_meta_or_at(const char *file, int line, const char *name, int dflt);

/* ---- scalars and tiles mix ------------------------------------------------- */
tl_t tl__id(tl_t v);
tl_t tl__cint(long long v);              /* weak integer literal */
tl_t tl__cuint(unsigned long long v);
tl_t tl__cflt(double v);                  /* weak float literal   */
#ifdef __cplusplus
}
static inline tl_t tl__v(tl_t v) { return v; }
static inline tl_t tl__v(bool v) { return tl__cint(v); }
static inline tl_t tl__v(char v) { return tl__cint(v); }
static inline tl_t tl__v(signed char v) { return tl__cint(v); }
static inline tl_t tl__v(unsigned char v) { return tl__cint(v); }
static inline tl_t tl__v(short v) { return tl__cint(v); }
static inline tl_t tl__v(unsigned short v) { return tl__cint(v); }
static inline tl_t tl__v(int v) { return tl__cint(v); }
static inline tl_t tl__v(unsigned v) { return tl__cuint(v); }
static inline tl_t tl__v(long v) { return tl__cint(v); }
static inline tl_t tl__v(unsigned long v) { return tl__cuint(v); }
static inline tl_t tl__v(long long v) { return tl__cint(v); }
static inline tl_t tl__v(unsigned long long v) { return tl__cuint(v); }
static inline tl_t tl__v(float v) { return tl__cflt(v); }
static inline tl_t tl__v(double v) { return tl__cflt(v); }
#define TL__V(x) tl__v(x)
extern "C" {
#else
#define TL__V(x) _Generic((x),                                                  \
    tl_t: tl__id, _Bool: tl__cint, char: tl__cint, signed char: tl__cint,       \
    unsigned char: tl__cint, short: tl__cint, unsigned short: tl__cint,         \
    int: tl__cint, unsigned: tl__cuint, long: tl__cint, unsigned long: tl__cuint,\
    long long: tl__cint, unsigned long long: tl__cuint,                         \
    float: tl__cflt, double: tl__cflt)(x)
#endif
#define TL__HERE __FILE__, __LINE__

/* Operands are traced left to right, as Python evaluates Triton's: C leaves
   the order of function arguments unspecified (gcc goes right to left), so
   the macros push each operand in order with the comma operator and a
   *_stk function pops them and calls the named op. Same IR on every compiler. */
void tl__push(tl_t v);
typedef tl_t (*tl__bin_fn)(const char *file, int line, tl_t a, tl_t b);
typedef tl_t (*tl__ter_fn)(const char *file, int line, tl_t a, tl_t b, tl_t c);
tl_t tl__bin_stk(const char *file, int line, tl__bin_fn fn);
tl_t tl__ter_stk(const char *file, int line, tl__ter_fn fn);
#define TILE__BIN(fn, a, b) (tl__push(TL__V(a)), tl__push(TL__V(b)), tl__bin_stk(TL__HERE, fn))
#define TILE__TER(fn, a, b, c) (tl__push(TL__V(a)), tl__push(TL__V(b)), tl__push(TL__V(c)), tl__ter_stk(TL__HERE, fn))

/* ---- creation ---------------------------------------------------------------- */
/* A shape given as C ints (at most TL_MAX_RANK dims). */
#define TL_MAX_RANK 5
typedef struct tl_shape { int rank; int dim[TL_MAX_RANK]; } tl_shape;
tl_shape tl__shape(int n, ...);
#define TL__SHAPE(...) tl__shape(TILE__NARG(__VA_ARGS__), __VA_ARGS__)

/* the program's index along axis 0..2 (i32 scalar) */
#define tl_program_id(axis) tl_program_id_at(TL__HERE, (axis))
tl_t tl_program_id_at(const char *file, int line, int axis);
/* the number of programs along axis 0..2 (i32 scalar) */
#define tl_num_programs(axis) tl_num_programs_at(TL__HERE, (axis))
tl_t tl_num_programs_at(const char *file, int line, int axis);
/* [start, end) as i32; end - start a power of two */
#define tl_arange(start, end) tl_arange_at(TL__HERE, (start), (end))
tl_t tl_arange_at(const char *file, int line, int start, int end);
/* tl_full(TL_F32, value, dims...): a tile of `value` cast to the dtype;
   without dims a rank-0 value of the dtype (Triton's `lo = 0` typed:
   tl_full(TL_I32, 0)), as is tl_zeros(TL_F32) */
#define tl_full(...) TILE__CAT(TL__FULL_, TILE__ONE(TILE__DROP1(__VA_ARGS__)))(__VA_ARGS__)
#define TL__FULL_ONE(dtype, value) tl_full_at(TL__HERE, (dtype), TL__V(value), tl__shape(0))
#define TL__FULL_MANY(dtype, value, ...) tl_full_at(TL__HERE, (dtype), TL__V(value), TL__SHAPE(__VA_ARGS__))
tl_t tl_full_at(const char *file, int line, tl_dtype dtype, tl_t value, tl_shape shape);
#define tl_zeros(...) TILE__CAT(TL__ZEROS_, TILE__ONE(__VA_ARGS__))(__VA_ARGS__)
#define TL__ZEROS_ONE(dtype) tl_full_at(TL__HERE, (dtype), tl__cint(0), tl__shape(0))
#define TL__ZEROS_MANY(dtype, ...) tl_full_at(TL__HERE, (dtype), tl__cint(0), TL__SHAPE(__VA_ARGS__))
#define tl_zeros_like(x) tl_zeros_like_at(TL__HERE, TL__V(x))
tl_t tl_zeros_like_at(const char *file, int line, tl_t x);
#define tl_full_like(x, value) TILE__BIN(tl_full_like_at, x, value)
tl_t tl_full_like_at(const char *file, int line, tl_t x, tl_t value);

/* ---- shape ------------------------------------------------------------------- */
#define tl_broadcast_to(x, ...) tl_broadcast_to_at(TL__HERE, TL__V(x), TL__SHAPE(__VA_ARGS__))
tl_t tl_broadcast_to_at(const char *file, int line, tl_t x, tl_shape shape);
/* tl_broadcast(a, b, &a2, &b2): both to their common shape */
#define tl_broadcast(a, b, pa, pb) (tl__push(TL__V(a)), tl__push(TL__V(b)), tl__broadcast_stk(TL__HERE, (pa), (pb)))
void tl_broadcast_at(const char *file, int line, tl_t a, tl_t b, tl_t *pa, tl_t *pb);
void tl__broadcast_stk(const char *file, int line, tl_t *pa, tl_t *pb);
#define tl_expand_dims(x, axis) tl_expand_dims_at(TL__HERE, TL__V(x), (axis))
tl_t tl_expand_dims_at(const char *file, int line, tl_t x, int axis);
#define tl_reshape(x, ...) tl_reshape_at(TL__HERE, TL__V(x), TL__SHAPE(__VA_ARGS__))
tl_t tl_reshape_at(const char *file, int line, tl_t x, tl_shape shape);
#define tl_view(x, ...) tl_reshape_at(TL__HERE, TL__V(x), TL__SHAPE(__VA_ARGS__))
#define tl_ravel(x) tl_ravel_at(TL__HERE, TL__V(x))
tl_t tl_ravel_at(const char *file, int line, tl_t x);
/* tl_permute(x, dims...): result dim i is x's dim order[i] */
#define tl_permute(x, ...) tl_permute_at(TL__HERE, TL__V(x), TL__SHAPE(__VA_ARGS__))
tl_t tl_permute_at(const char *file, int line, tl_t x, tl_shape order);
/* tl_trans(x): reverse the dims (a 2-D transpose) */
#define tl_trans(x) tl_trans_at(TL__HERE, TL__V(x))
tl_t tl_trans_at(const char *file, int line, tl_t x);
/* tl_flip(x, dim): x reversed along dim (negative: from the end), a power
   of two long (Triton's flip: each bit of the index complemented in turn by
   an xor with the xor-sum of the pair that bit tells apart) */
#define tl_flip(x, dim) tl_flip_at(TL__HERE, TL__V(x), (dim))
tl_t tl_flip_at(const char *file, int line, tl_t x, int dim);
/* tl_sort(x[, dim[, descending]]): Triton's sort: x sorted along dim (by
   default the last; negative counts from the end; Triton takes the last
   only), ascending, or descending when descending is 1; a bitonic network
   of compare-and-swaps (partners exchanged through shared memory), so a
   power of two long. Floats compare
   as numbers (a NaN is kept, in a place the network decides); i1 false
   before true. tl_topk(x, k[, dim]): Triton's topk: the k largest along
   dim (default the last), largest first; k a power of two up to the dim. */
#define tl_sort(...) TILE__CAT(tl__sort_, TILE__NARG(__VA_ARGS__))(__VA_ARGS__)
#define tl__sort_1(x) tl_sort_at(TL__HERE, TL__V(x), -1, 0)
#define tl__sort_2(x, dim) tl_sort_at(TL__HERE, TL__V(x), (dim), 0)
#define tl__sort_3(x, dim, descending) tl_sort_at(TL__HERE, TL__V(x), (dim), (descending))
tl_t tl_sort_at(const char *file, int line, tl_t x, int dim, int descending);
#define tl_topk(...) TILE__CAT(tl__topk_, TILE__NARG(__VA_ARGS__))(__VA_ARGS__)
#define tl__topk_2(x, k) tl_topk_at(TL__HERE, TL__V(x), (k), -1)
#define tl__topk_3(x, k, dim) tl_topk_at(TL__HERE, TL__V(x), (k), (dim))
tl_t tl_topk_at(const char *file, int line, tl_t x, int k, int dim);
/* tl_histogram(x, num_bins, .mask = m): Triton's histogram: i32[num_bins]
   counts of x's values (a 1-D integer tile) in each bin k of [k, k + 1),
   k < num_bins (a power of two); values outside and lanes where m is 0 are
   not counted. Block-local: the counts of this program's x (on the GPU in
   shared memory, one atomic per element), to be added up by the caller
   (one tl_atomic_add per bin per program). */
typedef struct tl_histogram_args { int tl__none; tl_t mask; } tl_histogram_args;
#define tl_histogram(...)                                                                                                     \
    tl_histogram_at(TL__HERE, TL__V(TILE__FIRST(__VA_ARGS__)), TILE__SECOND(__VA_ARGS__),                                     \
                    (tl_histogram_args){.tl__none = 0 TILE__REST2(__VA_ARGS__)})
tl_t tl_histogram_at(const char *file, int line, tl_t x, int num_bins, tl_histogram_args o);
/* tl_gather(src, index, axis): Triton's gather: a tile of index's shape
   whose element at c is src's at c with c[axis] replaced by index[c];
   index is integer, of src's rank, its dims but axis src's. An index
   outside [0, src's dim) is TILE_ERR_OOB in the interpreter; on the GPU it
   wraps modulo that dim (a power of two), never reading outside src. */
#define tl_gather(src, index, axis) (tl__push(TL__V(src)), tl__push(TL__V(index)), tl__gather_stk(TL__HERE, (axis)))
tl_t tl_gather_at(const char *file, int line, tl_t src, tl_t index, int axis);
tl_t tl__gather_stk(const char *file, int line, int axis);
/* concatenate along axis 0 */
#define tl_cat(a, b) TILE__BIN(tl_cat_at, a, b)
tl_t tl_cat_at(const char *file, int line, tl_t a, tl_t b);
/* stack along a new minor dim of size 2 */
#define tl_join(a, b) TILE__BIN(tl_join_at, a, b)
tl_t tl_join_at(const char *file, int line, tl_t a, tl_t b);
/* tl_split(x, &a, &b): undo join (last dim must be 2) */
#define tl_split(x, pa, pb) tl_split_at(TL__HERE, TL__V(x), (pa), (pb))
void tl_split_at(const char *file, int line, tl_t x, tl_t *pa, tl_t *pb);
/* interleave along the last dim */
#define tl_interleave(a, b) TILE__BIN(tl_interleave_at, a, b)
tl_t tl_interleave_at(const char *file, int line, tl_t a, tl_t b);

/* ---- elementwise ------------------------------------------------------------- */
#define TILE__BINARY_OPS(X)                                                     \
    X(add)      /* a + b; pointer + integer offsets advances by elements     */ \
    X(sub)      /* a - b; pointer - integer                                  */ \
    X(mul)      /* a * b                                                     */ \
    X(div)      /* true division: integers are converted to f32 first        */ \
    X(floordiv) /* integer division truncating toward zero (C, as Triton //) */ \
    X(mod)      /* remainder with the dividend's sign (C %, fmod for floats) */ \
    X(cdiv)     /* (a + b - 1) // b for integers (Triton's; ceil for a, b > 0)*/ \
    X(minimum)  /* elementwise min (floats: a NaN loses)                     */ \
    X(maximum)  /* elementwise max                                           */ \
    X(eq) X(ne) X(lt) X(le) X(gt) X(ge) /* comparisons -> i1                  */ \
    X(and)      /* bitwise and (logical on i1)                               */ \
    X(or)       /* bitwise or                                                */ \
    X(xor)      /* bitwise xor                                               */ \
    X(shl)      /* a << b                                                    */ \
    X(shr)      /* a >> b: arithmetic for signed, logical for unsigned       */ \
    X(logical_and) X(logical_or) /* on truth values -> i1                    */ \
    X(umulhi)   /* high half of the unsigned 2N-bit product (integers)       */

/* X(name, NAME): tl_<name>_at, whose op is TILE__OP_<NAME> of the op table.
   The float functions' builders are made from TILE__MATH_OPS (a new one is
   its row in the op table, its entry at the end of this list, its tl_ macro
   below and its test; README → Development → adding an op). */
#define TILE__MATH_OPS(X)                                                                      \
    X(exp, EXP) X(exp2, EXP2) X(log, LOG) X(log2, LOG2) X(sqrt, SQRT) X(rsqrt, RSQRT)          \
    X(sin, SIN) X(cos, COS) X(tanh, TANH) X(sigmoid, SIGMOID) X(erf, ERF) X(floor, FLOOR)      \
    X(ceil, CEIL)
#define TILE__UNARY_OPS(X) X(neg, NEG) X(not, NOT) X(abs, ABS) TILE__MATH_OPS(X)

#define TILE__DECL_BINARY(op) tl_t tl_##op##_at(const char *file, int line, tl_t a, tl_t b);
#define TILE__DECL_UNARY(op, OP) tl_t tl_##op##_at(const char *file, int line, tl_t x);
TILE__BINARY_OPS(TILE__DECL_BINARY)
TILE__UNARY_OPS(TILE__DECL_UNARY)
#undef TILE__DECL_BINARY
#undef TILE__DECL_UNARY

#define tl_add(a, b)         TILE__BIN(tl_add_at, a, b)
#define tl_sub(a, b)         TILE__BIN(tl_sub_at, a, b)
#define tl_mul(a, b)         TILE__BIN(tl_mul_at, a, b)
#define tl_div(a, b)         TILE__BIN(tl_div_at, a, b)
#define tl_floordiv(a, b)    TILE__BIN(tl_floordiv_at, a, b)
#define tl_mod(a, b)         TILE__BIN(tl_mod_at, a, b)
#define tl_cdiv(a, b)        TILE__BIN(tl_cdiv_at, a, b)
/* tl_minimum(a, b), tl_maximum(a, b): a NaN loses (Triton's PropagateNan.NONE); with
   .propagate_nan = TL_PROPAGATE_NAN_ALL (or 1) a NaN wins, as Triton's
   propagate_nan=tl.PropagateNan.ALL (PTX max.NaN): tl_maximum(a, b, .propagate_nan = 1);
   another value is TILE_ERR_VALUE, as Triton's ValueError. Integers have no NaN: the
   option changes nothing for them. */
typedef enum tl_propagate_nan { TL_PROPAGATE_NAN_NONE = 0, TL_PROPAGATE_NAN_ALL = 0xFFFF } tl_propagate_nan;
typedef struct tl_minmax_args { int tl__none; int propagate_nan; } tl_minmax_args;
#define tl_minimum(...) TILE__CAT(TILE__MINMAX_, TILE__ONE(TILE__DROP1(__VA_ARGS__)))(tl_minimum, 0, __VA_ARGS__)
#define TILE__MINMAX_ONE(fn, max, a, b) TILE__BIN(fn##_at, a, b)
#define TILE__MINMAX_MANY(fn, max, a, b, ...) \
    (tl__push(TL__V(a)), tl__push(TL__V(b)), tl__minmax_stk(TL__HERE, max, (tl_minmax_args){.tl__none = 0, __VA_ARGS__}))
tl_t tl_minimum_opts_at(const char *file, int line, tl_t a, tl_t b, tl_minmax_args o);
tl_t tl_maximum_opts_at(const char *file, int line, tl_t a, tl_t b, tl_minmax_args o);
tl_t tl__minmax_stk(const char *file, int line, int max, tl_minmax_args o);
/* tl_swizzle2d(i, j, size_i, size_j, size_g, &new_i, &new_j): Triton's
   swizzle2d: the (i, j) of a size_i x size_j row-major grid renumbered so
   that consecutive linear indices walk groups of size_g rows column by
   column (a matmul's L2-friendly program order; the last group may have
   fewer rows); integers, as tl_floordiv and tl_mod (truncating) */
#define tl_swizzle2d(i, j, size_i, size_j, size_g, new_i, new_j)                                                   \
    (tl__push(TL__V(i)), tl__push(TL__V(j)), tl__push(TL__V(size_i)), tl__push(TL__V(size_j)), tl__push(TL__V(size_g)), \
     tl__swizzle2d_stk(TL__HERE, (new_i), (new_j)))
void tl__swizzle2d_stk(const char *file, int line, tl_t *new_i, tl_t *new_j);
void tl_swizzle2d_at(const char *file, int line, tl_t i, tl_t j, tl_t size_i, tl_t size_j, tl_t size_g, tl_t *new_i, tl_t *new_j);
#define tl_maximum(...) TILE__CAT(TILE__MINMAX_, TILE__ONE(TILE__DROP1(__VA_ARGS__)))(tl_maximum, 1, __VA_ARGS__)
#define tl_eq(a, b)          TILE__BIN(tl_eq_at, a, b)
#define tl_ne(a, b)          TILE__BIN(tl_ne_at, a, b)
#define tl_lt(a, b)          TILE__BIN(tl_lt_at, a, b)
#define tl_le(a, b)          TILE__BIN(tl_le_at, a, b)
#define tl_gt(a, b)          TILE__BIN(tl_gt_at, a, b)
#define tl_ge(a, b)          TILE__BIN(tl_ge_at, a, b)
#define tl_and(a, b)         TILE__BIN(tl_and_at, a, b)
#define tl_or(a, b)          TILE__BIN(tl_or_at, a, b)
#define tl_xor(a, b)         TILE__BIN(tl_xor_at, a, b)
#define tl_shl(a, b)         TILE__BIN(tl_shl_at, a, b)
#define tl_shr(a, b)         TILE__BIN(tl_shr_at, a, b)
#define tl_logical_and(a, b) TILE__BIN(tl_logical_and_at, a, b)
#define tl_logical_or(a, b)  TILE__BIN(tl_logical_or_at, a, b)
#define tl_umulhi(a, b)      TILE__BIN(tl_umulhi_at, a, b)
/* Triton's names for the correctly rounded forms, which tl_div/tl_sqrt already are */
#define tl_fdiv(a, b)        TILE__BIN(tl_div_at, a, b)
#define tl_div_rn(a, b)      TILE__BIN(tl_div_at, a, b)
#define tl_sqrt_rn(x)        tl_sqrt_at(TL__HERE, TL__V(x))

#define tl_neg(x)     tl_neg_at(TL__HERE, TL__V(x))
#define tl_not(x)     tl_not_at(TL__HERE, TL__V(x))   /* ~x; logical not on i1 */
#define tl_abs(x)     tl_abs_at(TL__HERE, TL__V(x))
#define tl_exp(x)     tl_exp_at(TL__HERE, TL__V(x))
#define tl_exp2(x)    tl_exp2_at(TL__HERE, TL__V(x))
#define tl_log(x)     tl_log_at(TL__HERE, TL__V(x))
#define tl_log2(x)    tl_log2_at(TL__HERE, TL__V(x))
#define tl_sqrt(x)    tl_sqrt_at(TL__HERE, TL__V(x))
#define tl_rsqrt(x)   tl_rsqrt_at(TL__HERE, TL__V(x))
#define tl_sin(x)     tl_sin_at(TL__HERE, TL__V(x))
#define tl_cos(x)     tl_cos_at(TL__HERE, TL__V(x))
#define tl_tanh(x)    tl_tanh_at(TL__HERE, TL__V(x))
#define tl_sigmoid(x) tl_sigmoid_at(TL__HERE, TL__V(x))
#define tl_erf(x)     tl_erf_at(TL__HERE, TL__V(x))
#define tl_floor(x)   tl_floor_at(TL__HERE, TL__V(x))
#define tl_ceil(x)    tl_ceil_at(TL__HERE, TL__V(x))

/* libdevice's math functions by name (Triton's extra.cuda.libdevice):
   tl_libdevice("erfinv", x), tl_libdevice("atan2", y, x). Floats only (f16
   and bf16 compute in f32); operands broadcast and promote as tl_add's. On
   the GPU a call of __nv_<name>f / __nv_<name>; in the interpreter the C
   math library's function, or tile's own where C has none (erfinv,
   erfcinv, erfcx, cospi, sinpi, rcbrt, exp10). The integer ones take
   integers: popc, clz, ffs, brev, mulhi, umulhi any width; hadd, rhadd,
   mul24, sad, their u twins and byte_perm(x, y, s) i32, u32 and C integers
   only, as libdevice has them. The Bessel functions j0, j1, y0, y1,
   cyl_bessel_i0, cyl_bessel_i1, and jn(n, x), yn(n, x) of an i32 order.
   The rounding-mode variants, <name>_rn, _rz, _rd, _ru: add, sub, mul,
   div, fma, rcp, sqrt of f32 and f64, rsqrt_rn, and the conversions
   (float2int_rd, ull2double_ru, ...: each of exactly its dtype), bit for
   bit in the interpreter. The ones of other dtypes, as Triton declares
   them: abs, int_as_float ... double2hiint, isnan, isinf (i1), signbit,
   finitef, isfinited, ilogb (i32), llrint, llround (i64), ldexp(x, n),
   scalbn(x, n), pow(x, n) of an i32 n, saturatef; norm3d, norm4d (three
   and four operands); and the approximate fast_expf ... fast_dividef,
   rcp64h (the exact function in the interpreter). Every name tile knows
   (all of Triton 3.6's) is in README → The language; any other is
   TILE_ERR_VALUE at the call's line. */
#define tl_libdevice(name, ...) (TILE__MAP(TL__PUSHV, __VA_ARGS__), tl__libdevice_stk(TL__HERE, (name), TILE__NARG(__VA_ARGS__)))
tl_t tl_libdevice_at(const char *file, int line, const char *name, int n, const tl_t *args);
tl_t tl__libdevice_stk(const char *file, int line, const char *name, int n);

/* Triton's inline_asm_elementwise: tl_inline_asm_elementwise(asm, constraints, (args...), dtype, is_pure, pack)
   runs the PTX text `asm` once per element (once per `pack` elements) of the
   operands broadcast to one shape: $0 names the result, $1, $2, ... the
   operands; constraints are LLVM's, "=r,r,r": one letter for the result,
   then one an operand, by dtype (h 16-bit, r 32-bit and 8-bit, l 64-bit, f
   f32, d f64), checked at this line. With pack p (a power of two up to 16),
   as Triton's: a register holds as many of a value's p elements as 32 bits
   do (4 8-bit, 2 16-bit, at most p; two 8-bit ones are an h register), so
   each result and operand takes p / that many registers, each its own $k
   and letter ("=r,=r,=r,=r,r" for an f32 result of an u8 operand, pack 4).
   is_pure 0 keeps it where it is written (asm volatile). Several results
   (Triton's tuple of dtypes, up to 8):
     static const tl_dtype dts[2] = {TL_I32, TL_F32};
     tl_t r[2];
     tl_inline_asm_elementwise_n("...", "=r,=f,r", (x), 2, dts, 1, 1, r);
   $0.. the results' registers in order, then the operands'. The interpreter
   cannot run PTX: a kernel with one is TILE_ERR_NODEVICE there (its PTX
   still compiles with TILE_ARCH). */
#define tl_inline_asm_elementwise(asm_text, constraints, args, dtype, is_pure, pack)                     \
    (TILE__MAP(TL__PUSHV, TILE__ID args), tl__inline_asm_stk(TL__HERE, (asm_text), (constraints), TILE__NARG args, \
                                                             (dtype), (is_pure), (pack)))
#define tl_inline_asm_elementwise_n(asm_text, constraints, args, nres, dtypes, is_pure, pack, out)                   \
    (TILE__MAP(TL__PUSHV, TILE__ID args), tl__inline_asm_n_stk(TL__HERE, (asm_text), (constraints), TILE__NARG args, (nres), \
                                                               (dtypes), (is_pure), (pack), (out)))
tl_t tl_inline_asm_elementwise_at(const char *file, int line, const char *asm_text, const char *constraints, int n, const tl_t *args,
                                  tl_dtype dtype, int is_pure, int pack);
void tl_inline_asm_elementwise_n_at(const char *file, int line, const char *asm_text, const char *constraints, int n, const tl_t *args, int nres,
                                    const tl_dtype *dtypes, int is_pure, int pack, tl_t *out);
tl_t tl__inline_asm_stk(const char *file, int line, const char *asm_text, const char *constraints, int n, tl_dtype dtype, int is_pure, int pack);
void tl__inline_asm_n_stk(const char *file, int line, const char *asm_text, const char *constraints, int n, int nres, const tl_dtype *dtypes, int is_pure,
                          int pack, tl_t *out);

/* exp(x - max) / sum(exp(x - max)) along axis (TL_ALL: the whole tile) */
#define tl_softmax(x, axis) tl_softmax_at(TL__HERE, TL__V(x), (axis))
tl_t tl_softmax_at(const char *file, int line, tl_t x, int axis);
/* cond ? a : b, elementwise, with broadcasting and promotion of a and b */
#define tl_where(c, a, b) TILE__TER(tl_where_at, c, a, b)
tl_t tl_where_at(const char *file, int line, tl_t c, tl_t a, tl_t b);
/* a * b + c, rounded once (floats) */
#define tl_fma(a, b, c) TILE__TER(tl_fma_at, a, b, c)
tl_t tl_fma_at(const char *file, int line, tl_t a, tl_t b, tl_t c);
/* tl_clamp(x, lo, hi): min(max(x, lo), hi), a NaN losing each comparison as Triton's
   clamp with PropagateNan.NONE (maxnum, then minnum: a NaN x gives lo, a NaN bound is
   ignored). tl_clamp(x, lo, hi, .propagate_nan = TL_PROPAGATE_NAN_ALL) (or 1): a NaN in
   x, lo or hi gives NaN, as Triton's lowering on sm_80 and later (PTX max.NaN, then
   min.NaN); any other value is TILE_ERR_VALUE, as Triton's ValueError. Integers (which
   Triton's clamp refuses) have no NaN: the option changes nothing for them. */
#define tl_clamp(...) TILE__CAT(TILE__CLAMP_, TILE__ONE(TILE__DROP2(__VA_ARGS__)))(__VA_ARGS__)
#define TILE__CLAMP_ONE(x, lo, hi) TILE__TER(tl_clamp_at, x, lo, hi)
#define TILE__CLAMP_MANY(x, lo, hi, ...) \
    (tl__push(TL__V(x)), tl__push(TL__V(lo)), tl__push(TL__V(hi)), tl__clamp_stk(TL__HERE, (tl_minmax_args){.tl__none = 0, __VA_ARGS__}))
tl_t tl_clamp_at(const char *file, int line, tl_t x, tl_t lo, tl_t hi);
tl_t tl_clamp_opts_at(const char *file, int line, tl_t x, tl_t lo, tl_t hi, tl_minmax_args o);
tl_t tl__clamp_stk(const char *file, int line, tl_minmax_args o);
/* value conversion (floats round to nearest even, float->int truncates) */
#define tl_cast(x, dtype) tl_cast_at(TL__HERE, TL__V(x), (dtype))
tl_t tl_cast_at(const char *file, int line, tl_t x, tl_dtype dtype);
/* reinterpret the bits (same width) */
#define tl_bitcast(x, dtype) tl_bitcast_at(TL__HERE, TL__V(x), (dtype))
tl_t tl_bitcast_at(const char *file, int line, tl_t x, tl_dtype dtype);
/* tl_ptr_cast(p, TL_F16): the same addresses as pointers to another dtype
   (Triton's p.to(tl.pointer_type(tl.float16))); offsets added afterwards
   count the new dtype's elements. */
#define tl_ptr_cast(p, dtype) tl_ptr_cast_at(TL__HERE, TL__V(p), (dtype))
tl_t tl_ptr_cast_at(const char *file, int line, tl_t p, tl_dtype dtype);

/* ---- memory -------------------------------------------------------------------- */
typedef enum tl_cache { TL_CACHE_NONE = 0, TL_CACHE_CA, TL_CACHE_CG, TL_CACHE_CS, TL_CACHE_CV, TL_CACHE_WB, TL_CACHE_WT } tl_cache;
typedef enum tl_evict { TL_EVICT_NORMAL = 0, TL_EVICT_FIRST, TL_EVICT_LAST } tl_evict;
/* a block pointer (tl_make_block_ptr, below): the header names the builder's record of base, shape, strides and block
   (no op takes it); the offsets are i32 scalars. Both are the library's:
   copy and assign a tl_block_ptr whole. */
typedef struct tl_block_ptr { tl_t tl__hdr; tl_t tl__off[TL_MAX_RANK]; } tl_block_ptr;
typedef enum tl_padding { TL_PAD_NONE = 0, TL_PAD_ZERO, TL_PAD_NAN } tl_padding;
void tl__push_block(tl_block_ptr bp);
typedef struct tl_load_args {
    int tl__none;
    tl_t mask;         /* lanes where mask is 0 are not read                  */
    double other;      /* value of masked-off lanes (0 when not given)        */
    tl_t other_v;      /* ... or a tile/scalar value for them                 */
    tl_cache cache;
    tl_evict eviction;
    int is_volatile;
    int boundary_check;            /* block pointers: TL_DIMS(...) of the dims checked */
    tl_padding padding_option;     /* block pointers: what a lane outside them reads   */
} tl_load_args;
typedef struct tl_store_args {
    int tl__none;
    tl_t mask;
    tl_cache cache;
    tl_evict eviction;
    int boundary_check;            /* block pointers: TL_DIMS(...) of the dims checked */
} tl_store_args;
/* the first operand of tl_load / tl_store: a tile of pointers, or a block pointer (below) */
#ifdef __cplusplus
}
static inline void tl__push_ptr(tl_t p) { tl__push(p); }
static inline void tl__push_ptr(tl_block_ptr p) { tl__push_block(p); }
extern "C" {
#define TILE__PUSH_PTR(x) tl__push_ptr(x)
#else
#define TILE__PUSH_PTR(x) _Generic((x), struct tl_block_ptr: tl__push_block, default: tl__push)(x)
#endif
/* tl_load(ptrs, .mask = m, .other = 0.0, .cache = TL_CACHE_CG, .eviction = ...) */
#define tl_load(...) (TILE__PUSH_PTR(TILE__FIRST(__VA_ARGS__)), tl__load_stk(TL__HERE, (tl_load_args){.tl__none = 0 TILE__REST(__VA_ARGS__)}))
tl_t tl_load_at(const char *file, int line, tl_t ptr, tl_load_args o);
tl_t tl__load_stk(const char *file, int line, tl_load_args o);
/* tl_store(ptrs, value, .mask = m) */
#define tl_store(...) (TILE__PUSH_PTR(TILE__FIRST(__VA_ARGS__)), tl__push(TL__V(TILE__SECOND(__VA_ARGS__))), tl__store_stk(TL__HERE, (tl_store_args){.tl__none = 0 TILE__REST2(__VA_ARGS__)}))
void tl_store_at(const char *file, int line, tl_t ptr, tl_t value, tl_store_args o);
void tl__store_stk(const char *file, int line, tl_store_args o);

/* ---- atomics: each returns the old values ----------------------------------------- */
typedef enum tl_sem { TL_SEM_ACQ_REL = 0, TL_SEM_RELAXED, TL_SEM_ACQUIRE, TL_SEM_RELEASE } tl_sem;
typedef enum tl_scope { TL_SCOPE_GPU = 0, TL_SCOPE_CTA, TL_SCOPE_SYS } tl_scope;
typedef enum tl_atomic_op { TL_ATOMIC_ADD, TL_ATOMIC_MAX, TL_ATOMIC_MIN, TL_ATOMIC_AND, TL_ATOMIC_OR, TL_ATOMIC_XOR, TL_ATOMIC_XCHG } tl_atomic_op;
typedef struct tl_atomic_args { int tl__none; tl_t mask; tl_sem sem; tl_scope scope; } tl_atomic_args;
#define TILE__ATOMIC(kind, ...) (tl__push(TILE__FIRST(__VA_ARGS__)), tl__push(TL__V(TILE__SECOND(__VA_ARGS__))), tl__atomic_stk(TL__HERE, kind, (tl_atomic_args){.tl__none = 0 TILE__REST2(__VA_ARGS__)}))
#define tl_atomic_add(...)  TILE__ATOMIC(TL_ATOMIC_ADD, __VA_ARGS__)
#define tl_atomic_max(...)  TILE__ATOMIC(TL_ATOMIC_MAX, __VA_ARGS__)
#define tl_atomic_min(...)  TILE__ATOMIC(TL_ATOMIC_MIN, __VA_ARGS__)
#define tl_atomic_and(...)  TILE__ATOMIC(TL_ATOMIC_AND, __VA_ARGS__)
#define tl_atomic_or(...)   TILE__ATOMIC(TL_ATOMIC_OR, __VA_ARGS__)
#define tl_atomic_xor(...)  TILE__ATOMIC(TL_ATOMIC_XOR, __VA_ARGS__)
#define tl_atomic_xchg(...) TILE__ATOMIC(TL_ATOMIC_XCHG, __VA_ARGS__)
tl_t tl_atomic_at(const char *file, int line, tl_atomic_op kind, tl_t ptr, tl_t value, tl_atomic_args o);
tl_t tl__atomic_stk(const char *file, int line, tl_atomic_op kind, tl_atomic_args o);
/* tl_atomic_cas(ptr, cmp, value): if *ptr == cmp then *ptr = value; returns old */
#define tl_atomic_cas(...) (tl__push(TILE__FIRST(__VA_ARGS__)), tl__push(TL__V(TILE__SECOND(__VA_ARGS__))), tl__push(TL__V(TILE__THIRD(__VA_ARGS__))), tl__cas_stk(TL__HERE, (tl_atomic_args){.tl__none = 0 TILE__REST3(__VA_ARGS__)}))
tl_t tl_atomic_cas_at(const char *file, int line, tl_t ptr, tl_t cmp, tl_t value, tl_atomic_args o);
tl_t tl__cas_stk(const char *file, int line, tl_atomic_args o);

/* ---- tensor descriptors: Triton's tl.make_tensor_descriptor -----------------------
   A descriptor names a tensor in global memory (base, shape, strides in
   elements) and the block shape one access moves; its loads and stores take
   the block's offsets (the coordinates of its first element), one per dim:
       tl_t a_desc = tl_make_tensor_descriptor(a_ptr, (M, K), (stride_am, 1), (BLOCK_M, BLOCK_K));
       tl_t a      = tl_desc_load(a_desc, (off_m, off_k));          // [BLOCK_M, BLOCK_K]
       tl_desc_store(c_desc, (off_m, off_n), c);
       tl_desc_atomic_add(c_desc, (off_m, off_n), c);                 // also _min, _max
   A block read past the tensor's bounds (either side) reads zeros; a block
   written past them is clipped. Rank 1 to 5. The rules are the copy
   engine's (TMA), checked at the line that breaks them: each block dim a
   power of two of at most 256, the innermost block dim at least 16 bytes,
   the last stride 1; at launch, the base 16-byte aligned, every other
   stride a multiple of 16 bytes, each dim of the shape from 1 to 2^31-1.
   The base, shape and strides are kernel parameters or C constants (so the
   host can encode the descriptor when it launches the kernel); a descriptor
   is used by these calls only (not carried through TL_FOR, not computed on). */
#define TILE__ID(...) __VA_ARGS__
#define TL__PUSHV(x) tl__push(TL__V(x))
#define tl_make_tensor_descriptor(base, shape, strides, block_shape)                                       \
    (tl__push(TL__V(base)), TILE__MAP(TL__PUSHV, TILE__ID shape), TILE__MAP(TL__PUSHV, TILE__ID strides), \
     tl__make_desc_stk(TL__HERE, TILE__NARG shape, TILE__NARG strides, TL__SHAPE block_shape))
#define tl_desc_load(desc, offsets) \
    (tl__push(TL__V(desc)), TILE__MAP(TL__PUSHV, TILE__ID offsets), tl__desc_load_stk(TL__HERE, TILE__NARG offsets))
#define tl_desc_store(desc, offsets, value)                                                             \
    (tl__push(TL__V(desc)), TILE__MAP(TL__PUSHV, TILE__ID offsets), tl__push(TL__V(value)),               \
     tl__desc_store_stk(TL__HERE, -1, TILE__NARG offsets))
#define TILE__DESC_ATOMIC(kind, desc, offsets, value)                                                   \
    (tl__push(TL__V(desc)), TILE__MAP(TL__PUSHV, TILE__ID offsets), tl__push(TL__V(value)),               \
     tl__desc_store_stk(TL__HERE, kind, TILE__NARG offsets))
#define tl_desc_atomic_add(desc, offsets, value) TILE__DESC_ATOMIC(TL_ATOMIC_ADD, desc, offsets, value)
#define tl_desc_atomic_min(desc, offsets, value) TILE__DESC_ATOMIC(TL_ATOMIC_MIN, desc, offsets, value)
#define tl_desc_atomic_max(desc, offsets, value) TILE__DESC_ATOMIC(TL_ATOMIC_MAX, desc, offsets, value)
/* the same as functions: n shape, strides and offsets each */
tl_t tl_make_tensor_descriptor_at(const char *file, int line, tl_t base, int n, const tl_t *shape, int nstrides, const tl_t *strides, tl_shape block);
tl_t tl_desc_load_at(const char *file, int line, tl_t desc, int n, const tl_t *offsets);
/* kind -1: a store; TL_ATOMIC_ADD, _MIN or _MAX: that reduction into memory */
void tl_desc_store_at(const char *file, int line, int kind, tl_t desc, int n, const tl_t *offsets, tl_t value);
tl_t tl__make_desc_stk(const char *file, int line, int n, int nstrides, tl_shape block);
tl_t tl__desc_load_stk(const char *file, int line, int n);
void tl__desc_store_stk(const char *file, int line, int kind, int n);

/* ---- block pointers: Triton's tl.make_block_ptr / tl.advance -----------------------
   A block pointer names a block of a tensor in global memory: the tensor's
   base, shape and strides (in elements), the block's offsets (its first
   element's coordinates), its shape, and `order` (the dims from fastest to
   slowest in memory; a permutation, kept as Triton keeps it: a layout hint).
       tl_block_ptr a = tl_make_block_ptr(a_ptr, (M, K), (stride_am, stride_ak), (pid_m * BM, 0), (BM, BK), (1, 0));
       tl_t x = tl_load(a, .boundary_check = TL_DIMS(0, 1), .padding_option = TL_PAD_ZERO);   // [BM, BK]
       a = tl_advance(a, (0, BK));
       tl_store(c, acc, .boundary_check = TL_DIMS(0, 1));
   A load or store through one moves the whole block: the dims named in
   boundary_check are checked against [0, shape) (a lane outside is not
   read, and reads padding_option's value: TL_PAD_ZERO, or TL_PAD_NAN for
   floats; left out, zero), the others are not (as in Triton, a lane outside
   them is the caller's promise not to happen). `mask` and `other` are not
   taken. A block pointer is carried through TL_FOR, TL_IF and TL_WHILE as
   any tl_t is (its offsets are what flows around; advance it, do not remake
   it inside the body); it is not a tile and is not computed on. The
   offsets are i32, as Triton's. Rank 1 to 5. */
/* (tl_block_ptr and tl_padding are declared with tl_load's arguments) */
/* boundary_check's dims, as a bit set */
#define TL_DIMS(...) tl__dims(TILE__NARG(__VA_ARGS__), __VA_ARGS__)
int tl__dims(int n, ...);
#define tl_make_block_ptr(base, shape, strides, offsets, block_shape, order)                                      \
    (tl__push(TL__V(base)), TILE__MAP(TL__PUSHV, TILE__ID shape), TILE__MAP(TL__PUSHV, TILE__ID strides),          \
     TILE__MAP(TL__PUSHV, TILE__ID offsets),                                                                        \
     tl__make_block_ptr_stk(TL__HERE, TILE__NARG shape, TILE__NARG strides, TILE__NARG offsets, TL__SHAPE block_shape, TL__SHAPE order))
#define tl_advance(bp, offsets) (TILE__MAP(TL__PUSHV, TILE__ID offsets), tl__advance_stk(TL__HERE, (bp), TILE__NARG offsets))
tl_block_ptr tl_make_block_ptr_at(const char *file, int line, tl_t base, int n, const tl_t *shape, int nstrides, const tl_t *strides, int noffsets,
                                  const tl_t *offsets, tl_shape block_shape, tl_shape order);
tl_block_ptr tl_advance_at(const char *file, int line, tl_block_ptr bp, int n, const tl_t *offsets);
tl_block_ptr tl__make_block_ptr_stk(const char *file, int line, int n, int nstrides, int noffsets, tl_shape block_shape, tl_shape order);
tl_block_ptr tl__advance_stk(const char *file, int line, tl_block_ptr bp, int n);
/* tl_load / tl_store through a block pointer, as functions */
tl_t tl_load_block_at(const char *file, int line, tl_block_ptr bp, tl_load_args o);
void tl_store_block_at(const char *file, int line, tl_block_ptr bp, tl_t value, tl_store_args o);

/* ---- reductions and scans --------------------------------------------------------- */
#define TL_ALL 0x7fff /* axis: reduce over every dim */
typedef enum tl_reduce_op { TL_REDUCE_SUM, TL_REDUCE_MAX, TL_REDUCE_MIN, TL_REDUCE_ARGMAX, TL_REDUCE_ARGMIN, TL_REDUCE_XOR_SUM, TL_REDUCE_PROD, TL_REDUCE_OR,
               TL_REDUCE_AND } tl_reduce_op;
/* .keep_dims; .dtype: sum and prod accumulate and return in it; .propagate_nan (tl_max and
   tl_min of floats): a NaN wins, as tl_maximum's (Triton's tl.max has no such option; its
   combine is maximum's default, where a NaN loses, as tile's without it) */
typedef struct tl_reduce_args { int tl__none; int keep_dims; tl_dtype dtype; int propagate_nan; } tl_reduce_args;
#define TILE__REDUCE(kind, ...) tl_reduce_at(TL__HERE, kind, TL__V(TILE__FIRST(__VA_ARGS__)), TILE__SECOND(__VA_ARGS__), (tl_reduce_args){.tl__none = 0 TILE__REST2(__VA_ARGS__)})
/* tl_sum(x, axis, .keep_dims = 1, .dtype = TL_F32); axis may be negative or TL_ALL */
#define tl_sum(...)     TILE__REDUCE(TL_REDUCE_SUM, __VA_ARGS__)
#define tl_max(...)     TILE__REDUCE(TL_REDUCE_MAX, __VA_ARGS__)
#define tl_min(...)     TILE__REDUCE(TL_REDUCE_MIN, __VA_ARGS__)
#define tl_argmax(...)  TILE__REDUCE(TL_REDUCE_ARGMAX, __VA_ARGS__) /* i32; first index of the max */
#define tl_argmin(...)  TILE__REDUCE(TL_REDUCE_ARGMIN, __VA_ARGS__)
#define tl_xor_sum(...) TILE__REDUCE(TL_REDUCE_XOR_SUM, __VA_ARGS__)
#define tl_prod(...)    TILE__REDUCE(TL_REDUCE_PROD, __VA_ARGS__)
/* Triton's reduce_or / reduce_and: bitwise over integers, logical over i1 (the result's dtype is the input's) */
#define tl_reduce_or(...)  TILE__REDUCE(TL_REDUCE_OR, __VA_ARGS__)
#define tl_reduce_and(...) TILE__REDUCE(TL_REDUCE_AND, __VA_ARGS__)
tl_t tl_reduce_at(const char *file, int line, tl_reduce_op kind, tl_t x, int axis, tl_reduce_args o);
typedef struct tl_scan_args { int tl__none; int reverse; tl_dtype dtype; } tl_scan_args;
/* tl_cumsum(x, axis, .reverse = 1) */
#define tl_cumsum(...)  tl_scan_at(TL__HERE, TL_REDUCE_SUM, TL__V(TILE__FIRST(__VA_ARGS__)), TILE__SECOND(__VA_ARGS__), (tl_scan_args){.tl__none = 0 TILE__REST2(__VA_ARGS__)})
#define tl_cumprod(...) tl_scan_at(TL__HERE, TL_REDUCE_PROD, TL__V(TILE__FIRST(__VA_ARGS__)), TILE__SECOND(__VA_ARGS__), (tl_scan_args){.tl__none = 0 TILE__REST2(__VA_ARGS__)})
tl_t tl_scan_at(const char *file, int line, tl_reduce_op kind, tl_t x, int axis, tl_scan_args o);
/* Triton's tl.reduce and tl.associative_scan: a combine function, an
   ordinary C function that builds the combine of two values with tl_* ops
   (elementwise; it must be associative, and need not be commutative):
     static tl_t max_abs(tl_t a, tl_t b) { return tl_maximum(tl_abs(a), tl_abs(b)); }
     tl_t m = tl_reduce(x, 1, max_abs);                  (.keep_dims = 1; axis may be TL_ALL)
     tl_t c = tl_associative_scan(x, 0, max_abs);        (.reverse = 1)
   Several operands at once (Triton's tuples; up to 8, of one shape) with a
   function of arrays, out[k] = combine(a[k], b[k]):
     static void argmax(const tl_t *a, const tl_t *b, tl_t *out) { ... }
     tl_t vi[2] = {v, idx}, r[2];
     tl_reduce_n(2, vi, 0, argmax, r);
   The results keep the operands' dtypes. The function is traced on whole
   tiles log2(n) times (no closures: it reads meta-parameters with TL_META). */
typedef tl_t (*tl_combine_fn)(tl_t a, tl_t b);
typedef void (*tl_combine_n_fn)(const tl_t *a, const tl_t *b, tl_t *out);
#define tl_reduce(...) tl_reduce_fn_at(TL__HERE, TL__V(TILE__FIRST(__VA_ARGS__)), TILE__SECOND(__VA_ARGS__), TILE__THIRD(__VA_ARGS__), \
                                       (tl_reduce_args){.tl__none = 0 TILE__REST3(__VA_ARGS__)})
#define tl_reduce_n(n, xs, axis, fn, ...) tl_reduce_n_at(TL__HERE, (n), (xs), (axis), (fn), TILE__FIRST(__VA_ARGS__), \
                                                         (tl_reduce_args){.tl__none = 0 TILE__REST(__VA_ARGS__)})
#define tl_associative_scan(...) tl_associative_scan_at(TL__HERE, TL__V(TILE__FIRST(__VA_ARGS__)), TILE__SECOND(__VA_ARGS__), TILE__THIRD(__VA_ARGS__), \
                                                        (tl_scan_args){.tl__none = 0 TILE__REST3(__VA_ARGS__)})
#define tl_associative_scan_n(n, xs, axis, fn, ...) tl_associative_scan_n_at(TL__HERE, (n), (xs), (axis), (fn), TILE__FIRST(__VA_ARGS__), \
                                                                             (tl_scan_args){.tl__none = 0 TILE__REST(__VA_ARGS__)})
tl_t tl_reduce_fn_at(const char *file, int line, tl_t x, int axis, tl_combine_fn fn, tl_reduce_args o);
void tl_reduce_n_at(const char *file, int line, int n, const tl_t *xs, int axis, tl_combine_n_fn fn, tl_t *out, tl_reduce_args o);
tl_t tl_associative_scan_at(const char *file, int line, tl_t x, int axis, tl_combine_fn fn, tl_scan_args o);
void tl_associative_scan_n_at(const char *file, int line, int n, const tl_t *xs, int axis, tl_combine_n_fn fn, tl_t *out, tl_scan_args o);

/* Triton's map_elementwise: a C function applied to each element of the
   operands broadcast to one shape, built with tl_* ops on rank-0 values,
   so that it may branch on them (TL_IF, TL_FOR, TL_WHILE on its scalars
   run only what an element takes, where tl_where computes both sides):
     static tl_t selu(const tl_t *x) {                   (x[0] the element, x[1] alpha's)
         tl_t r = x[0];
         TL_IF (tl_le(r, 0), r) { r = tl_mul(x[1], tl_sub(tl_exp(r), 1)); }
         return r;
     }
     tl_t y = tl_map_elementwise(selu, (x, alpha));
   Several results (Triton's tuple; up to 64), or pack elements at once:
     static void divmod(const tl_t *x, tl_t *out) { ... }   (pack 2: x = a0, a1, b0, b1; out = q0, q1, r0, r1)
     tl_t qr[2];
     tl_map_elementwise_n(divmod, (a, b), 2, qr, .pack = 2);
   With pack p (a power of two up to 16) the function takes p consecutive
   elements of the last dim at once: x[k * p + j] is operand k's j-th, and
   out[r * p + j] result r's. Each result has the dtype the function gives
   it. The function is traced once, may read any scalar made outside it and
   may load, but holds one element: it may not make or use a tile, store,
   use atomics, print, assert or wait at a barrier (an error at the line
   inside it). */
typedef tl_t (*tl_map_fn)(const tl_t *x);
typedef void (*tl_map_n_fn)(const tl_t *x, tl_t *out);
typedef struct tl_map_args { int tl__none; int pack; /* 0: 1 */ } tl_map_args;
#define tl_map_elementwise(fn, args) (TILE__MAP(TL__PUSHV, TILE__ID args), tl__map_stk(TL__HERE, (fn), TILE__NARG args))
#define tl_map_elementwise_n(fn, args, nres, ...)                                                                  \
    (TILE__MAP(TL__PUSHV, TILE__ID args), tl__map_n_stk(TL__HERE, (fn), TILE__NARG args, (nres), TILE__FIRST(__VA_ARGS__), \
                                                        (tl_map_args){.tl__none = 0 TILE__REST(__VA_ARGS__)}))
tl_t tl_map_elementwise_at(const char *file, int line, tl_map_fn fn, int n, const tl_t *args);
void tl_map_elementwise_n_at(const char *file, int line, tl_map_n_fn fn, int n, const tl_t *args, int nres, tl_t *out, tl_map_args o);
tl_t tl__map_stk(const char *file, int line, tl_map_fn fn, int n);
void tl__map_n_stk(const char *file, int line, tl_map_n_fn fn, int n, int nres, tl_t *out, tl_map_args o);

/* ---- random numbers (Triton 3.6's triton.language.random) -------------------------
   Philox 4x32 (Random123's; 10 rounds unless .n_rounds = n): a pure function
   of a seed (any integer; its low and high 32 bits are the key) and a
   counter, so each offset of the offset tile gets its own numbers, the same
   in every program, launch and back end, and the same as Triton's for the
   same seed and offsets.
     tl_randint(seed, offset)         u32: Philox of the counter (offset's low
                                      32 bits, its high 32 bits (64-bit
                                      offsets), 0, 0), its first word
     tl_randint4x(seed, offset, out)  all four words, into tl_t out[4]
     tl_rand(seed, offset)            f32 in [0, 1): tl_uint_to_uniform_float
     tl_rand4x(seed, offset, out)     of the first word (of each word)
     tl_randn(seed, offset)           f32 N(0, 1): Box-Muller of words 0 and 1
     tl_randn4x(seed, offset, out)    of words 0, 1 and of 2, 3
     tl_philox(seed, c, out)          the four words for counters tl_t c[4]
   e.g. dropout: tl_t keep = tl_gt(tl_rand(seed, offs), p). */
typedef struct tl_rand_args { int tl__none; int n_rounds; /* 0: 10 */ } tl_rand_args;
enum { TL__RAND_INT, TL__RAND_INT4, TL__RAND_U, TL__RAND_U4, TL__RAND_N, TL__RAND_N4 };
#define TILE__RAND1(kind, ...)                                                                                                \
    (tl__push(TL__V(TILE__FIRST(__VA_ARGS__))), tl__push(TL__V(TILE__SECOND(__VA_ARGS__))),                                  \
     tl__random_stk(TL__HERE, kind, NULL, (tl_rand_args){.tl__none = 0 TILE__REST2(__VA_ARGS__)}))
#define TILE__RAND4(kind, ...)                                                                                                \
    ((void)(tl__push(TL__V(TILE__FIRST(__VA_ARGS__))), tl__push(TL__V(TILE__SECOND(__VA_ARGS__))),                           \
            tl__random_stk(TL__HERE, kind, TILE__THIRD(__VA_ARGS__), (tl_rand_args){.tl__none = 0 TILE__REST3(__VA_ARGS__)})))
#define tl_randint(...)   TILE__RAND1(TL__RAND_INT, __VA_ARGS__)
#define tl_randint4x(...) TILE__RAND4(TL__RAND_INT4, __VA_ARGS__)
#define tl_rand(...)      TILE__RAND1(TL__RAND_U, __VA_ARGS__)
#define tl_rand4x(...)    TILE__RAND4(TL__RAND_U4, __VA_ARGS__)
#define tl_randn(...)     TILE__RAND1(TL__RAND_N, __VA_ARGS__)
#define tl_randn4x(...)   TILE__RAND4(TL__RAND_N4, __VA_ARGS__)
#define tl_philox(...)                                                                                                        \
    tl_philox_at(TL__HERE, TL__V(TILE__FIRST(__VA_ARGS__)), TILE__SECOND(__VA_ARGS__), TILE__THIRD(__VA_ARGS__),               \
                 (tl_rand_args){.tl__none = 0 TILE__REST3(__VA_ARGS__)})
/* x (u32 or i32; u64 or i64) to f32 in [0, 1): |x| as a signed integer
   (-x - 1 when negative) times 1/2^31 (1/2^63), rounded as Triton does */
#define tl_uint_to_uniform_float(x) tl_uint_to_uniform_float_at(TL__HERE, TL__V(x))
/* Box-Muller: n1 = r cos(2 pi u2), n2 = r sin(2 pi u2), r = sqrt(-2 log(max(1e-7, u1))) */
#define tl_pair_uniform_to_normal(u1, u2, n1, n2) tl_pair_uniform_to_normal_at(TL__HERE, (u1), (u2), (n1), (n2))
tl_t tl_random_at(const char *file, int line, int kind, tl_t seed, tl_t offset, tl_t *out, tl_rand_args o);
tl_t tl__random_stk(const char *file, int line, int kind, tl_t *out, tl_rand_args o);
void tl_philox_at(const char *file, int line, tl_t seed, const tl_t *c, tl_t *out, tl_rand_args o);
tl_t tl_uint_to_uniform_float_at(const char *file, int line, tl_t x);
void tl_pair_uniform_to_normal_at(const char *file, int line, tl_t u1, tl_t u2, tl_t *n1, tl_t *n2);

/* ---- dot -------------------------------------------------------------------------- */
/* f32 inputs of tl_dot: TF32 (one tf32 product, Triton's default), TF32X3
   (three tf32 products: about f32's accuracy), IEEE (f32 FMAs), BF16X3 and
   BF16X6 (each operand split into 2 or 3 bf16 parts, the 3 or 6 largest of
   their products summed on the tensor cores, smallest first: about 16 and
   24 bits, as Triton's "bf16x3" and "bf16x6") */
typedef enum tl_precision {
    TL_PRECISION_DEFAULT = 0, TL_PRECISION_TF32, TL_PRECISION_TF32X3, TL_PRECISION_IEEE, TL_PRECISION_BF16X3, TL_PRECISION_BF16X6
} tl_precision;
typedef struct tl_dot_args {
    int tl__none;
    tl_t acc;                      /* added to the product (and gives its dtype) */
    tl_precision input_precision;  /* f32 inputs: default tf32, as Triton        */
    tl_dtype out_dtype;            /* without acc: f32 (ints: i32) by default    */
    int max_num_imprecise_acc;     /* fp8 inputs: the products (along K) summed in
                                      the tensor cores' fast accumulator before the
                                      sum is added to the f32 accumulator; 0: no
                                      limit (Triton's default on Hopper)         */
} tl_dot_args;
/* tl_dot(a, b), tl_dot(a, b, acc), tl_dot(a, b, .acc = acc, .input_precision = TL_PRECISION_IEEE):
   a [M, K] @ b [K, N] (+ acc [M, N]), or batched, a [B, M, K] @ b [B, K, N]
   (+ acc [B, M, N]) -> [B, M, N], made as B 2-D dots */
#define tl_dot(...) (tl__push(TL__V(TILE__FIRST(__VA_ARGS__))), tl__push(TL__V(TILE__SECOND(__VA_ARGS__))), tl__dot_stk(TL__HERE, (tl_dot_args){.tl__none = 0 TILE__REST2(__VA_ARGS__)}))
tl_t tl_dot_at(const char *file, int line, tl_t a, tl_t b, tl_dot_args o);
tl_t tl__dot_stk(const char *file, int line, tl_dot_args o);

/* Triton's dot_scaled: lhs @ rhs of microscaled (OCP MX) operands, f32
   result. A format says what an operand's elements are: e2m1 (fp4, two to
   a u8, the low nibble first, along K, or along M / N with .lhs_m_pack /
   .rhs_n_pack), e4m3 and e5m2 (TL_F8E4M3 / TL_F8E5M2 or their u8 bits),
   bf16 and fp16 (TL_BF16 / TL_F16 or their u16 bits). A scale is a u8 tile
   of e8m0 exponents, one per 32 values along K: [M, K/32] for lhs, [N, K/32]
   for rhs, or TL_NO_SCALE. Batched: lhs [B, M, K], rhs [B, K, N], scales
   [B, M, K/32] and [B, N, K/32], acc and result [B, M, N]. */
typedef enum tl_fmt { TL_FMT_E2M1 = 1, TL_FMT_E4M3, TL_FMT_E5M2, TL_FMT_BF16, TL_FMT_FP16 } tl_fmt;
typedef struct tl_dot_scaled_args {
    int tl__none;
    tl_t acc;            /* f32 [M, N] ([B, M, N]), added to the product             */
    int fast_math;       /* 1: a scale of 255 is not made NaN (Triton's fast_math)   */
    int lhs_m_pack;      /* 1: an e2m1 lhs is packed along M (Triton's lhs_k_pack=False) */
    int rhs_n_pack;      /* 1: an e2m1 rhs is packed along N (Triton's rhs_k_pack=False) */
    tl_dtype out_dtype;  /* f32 (the default) only, as Triton                        */
} tl_dot_scaled_args;
/* no scale for that operand */
#ifdef __cplusplus
#define TL_NO_SCALE (tl_t{0, 0})
#else
#define TL_NO_SCALE ((tl_t){0, 0})
#endif
/* tl_dot_scaled(a, a_scale, TL_FMT_E2M1, b, TL_NO_SCALE, TL_FMT_BF16, .acc = acc) */
#define tl_dot_scaled(...)                                                                                                \
    (tl__push(TL__V(TILE__FIRST(__VA_ARGS__))), tl__push(TL__V(TILE__SECOND(__VA_ARGS__))),                              \
     tl__push(TL__V(TILE__ARG4(__VA_ARGS__))), tl__push(TL__V(TILE__ARG5(__VA_ARGS__))),                                 \
     tl__dot_scaled_stk(TL__HERE, (TILE__THIRD(__VA_ARGS__)), (TILE__ARG6(__VA_ARGS__)),                                 \
                        (tl_dot_scaled_args){.tl__none = 0 TILE__REST6(__VA_ARGS__)}))
#define TILE__ARG4(...) TILE__EXPAND(TILE__ARG4_(__VA_ARGS__, 0, 0, 0, 0))
#define TILE__ARG4_(a, b, c, d, ...) d
#define TILE__ARG5(...) TILE__EXPAND(TILE__ARG5_(__VA_ARGS__, 0, 0, 0, 0, 0))
#define TILE__ARG5_(a, b, c, d, e, ...) e
#define TILE__ARG6(...) TILE__EXPAND(TILE__ARG6_(__VA_ARGS__, 0, 0, 0, 0, 0, 0))
#define TILE__ARG6_(a, b, c, d, e, f, ...) f
#define TILE__REST6(...) TILE__CAT(TILE__REST6_, TILE__ONE(TILE__DROP5(__VA_ARGS__)))(__VA_ARGS__)
#define TILE__DROP5(a, b, c, d, e, ...) __VA_ARGS__
#define TILE__REST6_ONE(a, b, c, d, e, f)
#define TILE__REST6_MANY(a, b, c, d, e, f, ...) , __VA_ARGS__
tl_t tl_dot_scaled_at(const char *file, int line, tl_t lhs, tl_t lhs_scale, tl_fmt lhs_format, tl_t rhs, tl_t rhs_scale, tl_fmt rhs_format,
                      tl_dot_scaled_args o);
tl_t tl__dot_scaled_stk(const char *file, int line, tl_fmt lhs_format, tl_fmt rhs_format, tl_dot_scaled_args o);

/* ---- debugging ---------------------------------------------------------------------- */
/* tl_print("x:", x, y): prints each element with its program and index */
#define tl_print(...) tl_print_at(TL__HERE, TILE__NARG(__VA_ARGS__) - 1, __VA_ARGS__)
void tl_print_at(const char *file, int line, int n, const char *prefix, ...);
/* Compiler hints (Triton's multiple_of, max_contiguous, max_constancy): x
   itself, with a fact about its last dim that the alignment analysis then
   uses (TILE_DUMP=ttgir shows it): the first element of each run of
   consecutive values is a multiple of n (pointers: of n bytes); the first n
   values of each run are consecutive; runs of n equal values. The values
   are not checked: a false hint gives wrong vector accesses, as in Triton.
   x: integers or pointers (constancy: any dtype); n >= 1, a C int. */
#define tl_multiple_of(x, n)    tl_hint_at(TL__HERE, 0, TL__V(x), (n))
#define tl_max_contiguous(x, n) tl_hint_at(TL__HERE, 1, TL__V(x), (n))
#define tl_max_constancy(x, n)  tl_hint_at(TL__HERE, 2, TL__V(x), (n))
tl_t tl_hint_at(const char *file, int line, int kind, tl_t x, int n);
/* tl_static_assert(cond, "message"): cond is a C int known while the kernel
   is built (a meta-parameter, tl_dim, tl_rank, ...); when
   it is 0 the build fails with TILE_ERR_ASSERT at this line, naming cond and
   the message (Triton's static_assert). Nothing is left in the kernel. */
#define tl_static_assert(cond, msg) tl_static_assert_at(TL__HERE, (cond) ? 1 : 0, #cond, (msg))
void tl_static_assert_at(const char *file, int line, int cond, const char *text, const char *msg);
/* tl_static_print("x", x): prints, while the kernel is built, the line, the
   label and x's dtype and shape, with its value when the builder knows it
   as a constant (Triton's static_print); once per build (each config) */
#define tl_static_print(label, x) tl_static_print_at(TL__HERE, (label), TL__V(x))
void tl_static_print_at(const char *file, int line, const char *label, tl_t x);
/* tl_device_assert(cond, "message"): fails the launch where a lane is false */
#define tl_device_assert(cond, msg) tl_assert_at(TL__HERE, TL__V(cond), (msg))
#define tl_assert(cond, msg) tl_assert_at(TL__HERE, TL__V(cond), (msg))
void tl_assert_at(const char *file, int line, tl_t cond, const char *msg);
/* tl_assume(cond): Triton's assume: the compiler may take cond (i1 or an
   integer; a scalar or a tile, each element) as true. The interpreter
   checks it (TILE_ERR_ASSERT at this line where it is false); the GPU code
   does not check it, and hands it to the compiler (CUDA C's
   __builtin_assume, LLVM's llvm.assume), whose results are undefined where
   it is false. */
#define tl_assume(cond) tl_assume_at(TL__HERE, TL__V(cond), #cond)
void tl_assume_at(const char *file, int line, tl_t cond, const char *text);
#define tl_debug_barrier() tl_debug_barrier_at(TL__HERE)
void tl_debug_barrier_at(const char *file, int line);
/* tl_profile_enter("name") ... tl_profile_exit("name"): a scope inside the
   kernel (Proton's instrumentation mode). While a profile runs, each warp
   (or warpgroup) of a program records the GPU's clocks where it enters and
   leaves it; with no profile running the kernel compiles as if they were
   not there. Scopes nest, and an exit leaves the innermost scope of its
   block (TL_FOR, TL_IF or the body), which the enter opened. */
#define tl_profile_enter(name) tl_profile_at(TL__HERE, (name), 0)
#define tl_profile_exit(name) tl_profile_at(TL__HERE, (name), 1)
void tl_profile_at(const char *file, int line, const char *name, int exit);
/* the shape and dtype of a traced value, for C code that builds the IR */
int      tl_rank(tl_t x);
int      tl_dim(tl_t x, int axis);
tl_dtype tl_dtype_of(tl_t x);
/* the pointee of a pointer (or a tensor descriptor's element dtype), as
   Triton's x.dtype.element_ty; another value's own dtype. With tl_ptr
   parameters it is how one body serves several dtypes:
   tl_store(out, tl_cast(acc, tl_element_ty(out)), ...) */
tl_dtype tl_element_ty(tl_t x);

/* ---- runtime control flow -----------------------------------------------------------
   TL_FOR (i, lo, hi, step, carried...) { ... }
       i runs lo, lo+step, ... < hi at run time. The carried variables (C
       variables of type tl_t declared before the loop) flow around the loop:
       inside, they hold this iteration's values; after, the final ones. A
       value made inside the body must not be used after it unless carried.
   TL_IF (cond, carried...) { ... } TL_ELSE { ... }
       cond is an i1 (or integer) scalar. The carried variables, assigned in
       either branch, hold the taken branch's value afterwards. TL_ELSE is
       optional.
   TL_WHILE (cond, carried...) { ... }
       cond is re-evaluated before each iteration from the carried values.
   A body must not `break` out of, `return` from, or `goto` out of these. */
typedef struct tl__frame tl__frame;
/* lo, hi and step are on the operand stack */
tl__frame *tl__for_begin(const char *file, int line, tl_t *iv, const char *names, int n, ...);
tl__frame *tl__for_end(const char *file, int line, tl__frame *f);
tl__frame *tl__if_begin(const char *file, int line, tl_t cond, const char *names, int n, ...);
tl__frame *tl__if_end(const char *file, int line, tl__frame *f);
tl__frame *tl__else_begin(const char *file, int line);
tl__frame *tl__else_end(const char *file, int line, tl__frame *f);
tl__frame *tl__while_begin(const char *file, int line, const char *names, int n, ...);
int        tl__while_cond(const char *file, int line, tl__frame *f, tl_t cond);
tl__frame *tl__while_end(const char *file, int line, tl__frame *f);

/* Loop options, Triton's tl.range(..., num_stages=, warp_specialize=,
   flatten=, disallow_acc_multi_buffer=): TL_LOOP_OPTIONS(.num_stages = 4,
   .warp_specialize = 1) right before a TL_FOR attaches them to that loop
   (fields left out keep their defaults). Each is honoured or explained by
   a one-line notice at the TL_FOR's line saying what runs instead
   (TILE_STRICT=1 makes that an error):
     num_stages       the stages of this loop's ring (0: the launch's)
     warp_specialize  on sm_90a, a producer warpgroup issues the TMA ring's
                      copies and the launch's num_warps compute (on the
                      loop of the ring or a loop around it)
     flatten          not done by tile: explained, the loops stay nested
     disallow_acc_multi_buffer
                      honoured always: tile never multi-buffers an
                      accumulator */
typedef struct tl_loop_options {
    int num_stages;
    int warp_specialize;
    int flatten;
    int disallow_acc_multi_buffer;
} tl_loop_options;
void tl__loop_options(const char *file, int line, tl_loop_options o);
#ifdef __cplusplus
#define TL_LOOP_OPTIONS(...) tl__loop_options(TL__HERE, tl_loop_options{__VA_ARGS__})
#else
#define TL_LOOP_OPTIONS(...) tl__loop_options(TL__HERE, (tl_loop_options){__VA_ARGS__})
#endif

/* a carried variable: a tl_t, or a tl_block_ptr (whose first member is its tl_t header) */
#define TILE__ADDR(v) (tl_t *)(void *)&(v)
#define TILE__ADDRS_ONE(step)
#define TILE__ADDRS_MANY(step, ...) , TILE__MAP(TILE__ADDR, __VA_ARGS__)
#define TILE__CARRIED(...) #__VA_ARGS__, TILE__NARG(__VA_ARGS__) - 1 TILE__CAT(TILE__ADDRS_, TILE__ONE(__VA_ARGS__))(__VA_ARGS__)

#define TL_FOR(iv, lo, hi, ...)                                                         \
    for (tl_t iv = {0, 0}, *tl__loop_once = (tl__push(TL__V(lo)), tl__push(TL__V(hi)),        \
             tl__push(TL__V(TILE__FIRST(__VA_ARGS__))),                                 \
             (tl_t *)tl__for_begin(TL__HERE, &iv, TILE__CARRIED(__VA_ARGS__)));          \
         tl__loop_once; tl__loop_once = (tl_t *)tl__for_end(TL__HERE, (tl__frame *)tl__loop_once))

/* the condition comes first among TL_IF's arguments, so it stands in for the step */
#define TL_IF(...)                                                                      \
    for (tl__frame *tl__if_once = tl__if_begin(TL__HERE, TL__V(TILE__FIRST(__VA_ARGS__)), \
             TILE__CARRIED(__VA_ARGS__));                                                \
         tl__if_once; tl__if_once = tl__if_end(TL__HERE, tl__if_once))
#define TL_ELSE                                                                         \
    for (tl__frame *tl__else_once = tl__else_begin(TL__HERE); tl__else_once;            \
         tl__else_once = tl__else_end(TL__HERE, tl__else_once))

#define TL_WHILE(...)                                                                   \
    for (tl__frame *tl__while_f = tl__while_begin(TL__HERE, TILE__CARRIED(__VA_ARGS__)); \
         tl__while_cond(TL__HERE, tl__while_f, TL__V(TILE__FIRST(__VA_ARGS__)));         \
         tl__while_f = tl__while_end(TL__HERE, tl__while_f))

#ifdef __cplusplus
}
#endif

#endif /* TILE_LANG_H */
