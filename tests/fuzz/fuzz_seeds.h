/* tests/fuzz/fuzz_seeds.h — the seed corpus of fuzz_kernel.c, one small
   program per op family and control-flow construct, written with the
   harness's own op names. tests/fuzz/corpus/ is what
       build/tests/fuzz_kernel -write-seeds=tests/fuzz/corpus
   writes from them (the libFuzzer run adds nothing there: its corpus grows
   in the build tree). TILE_FUZZ_TRACE=1 shows how an input decodes.

   Reading a seed: the pool starts as x64 x32 nu64 nu32 n64 n (top first);
   a pick byte k is the k-th fitting value from the top; each instruction
   pushes its result. */
#ifndef FZ_SEEDS_H
#define FZ_SEEDS_H

#define FZ_HDR0 0, 4, 0, 0, 50, 3      /* BLOCK 16, default warps and stages, one program, n = 50 */
#define FZ_I(v) ((v) + 16)             /* FZ_LIT_INT byte of -16 <= v <= 47                     */
#define FZ_F(q) ((q) + 8)              /* FZ_LIT_FLT byte of q / 4, -8 <= q <= 23               */
#define FZ_LI(v) (((v) + 16) << 1)     /* fz_lit byte of an integer literal                      */
#define FZ_LF(q) ((((q) + 8) << 1) | 1) /* fz_lit byte of the float literal q / 4                */
#define FZ_D(t) ((t) - TL_I1)          /* fz_dtype byte; also the pointer parameter to dtype t   */
#define FZ_S0 0                        /* fz_shape: a scalar                                     */
#define FZ_S1(a) 1, a                  /* [1 << a] (a <= 5)                                      */
#define FZ_S2(a, b) 2, a, b
#define FZ_S3(a, b, c) 3, a, b, c
#define FZ_IN(p) FZ_PTR, FZ_D(p), 0    /* then a shape: pointers p_<dtype> + arange in that shape */
#define FZ_LOADM FZ_LOAD, 0, 3, 0, 0   /* load the top pointer tile, masked by offsets < n       */
#define FZ_STOREM FZ_STORE, 0, 0, 3, 0 /* store the top fitting number to the top pointer tile   */

typedef struct fz_seed { const char *name; const uint8_t *data; size_t size; } fz_seed;
#define FZ_SEED(name, ...) static const uint8_t fz_seed_##name[] = {__VA_ARGS__};
#define FZ_SEEDS(X)                                                                              \
    X(ptr_load_store) X(unary_math) X(int_ops) X(compare_where) X(fma_clamp) X(cast_bitcast)     \
    X(literals_full) X(program_id) X(arange_reshape) X(broadcast) X(permute_trans) X(combine)    \
    X(reduce) X(scan) X(softmax) X(dot_f16) X(dot_i8) X(dot_f32_bf16_fp8) X(atomics) X(cas)      \
    X(load_options) X(for_sum) X(for_down_nested) X(if_else) X(while_loop) X(nested_control)     \
    X(meta) X(debug_ops) X(launch_options) X(deep_expr) X(query) X(deep_nest) X(libdevice)       \
    X(libdevice_int) X(inline_asm) X(map_elementwise) X(inline_asm_n) X(libdevice_rounded)      \
    X(propagate_nan) X(libdevice_more) X(dot_batched)                                            \
    X(err_shape) X(err_scope) X(err_launch) X(err_meta)

/* y = x + x32 through f32 loads, f64 stores */
FZ_SEED(ptr_load_store, FZ_HDR0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_LOADM,
        FZ_BINARY, FZ_B_add, 0, 2,
        FZ_IN(TL_F64), FZ_S1(5), FZ_STOREM)
/* every unary op in a chain */
FZ_SEED(unary_math, FZ_HDR0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_LOADM,
        FZ_UNARY, FZ_U_abs, 0, FZ_UNARY, FZ_U_sqrt, 0, FZ_UNARY, FZ_U_sin, 0, FZ_UNARY, FZ_U_cos, 0,
        FZ_UNARY, FZ_U_tanh, 0, FZ_UNARY, FZ_U_sigmoid, 0, FZ_UNARY, FZ_U_erf, 0, FZ_UNARY, FZ_U_exp, 0,
        FZ_UNARY, FZ_U_log, 0, FZ_UNARY, FZ_U_exp2, 0, FZ_UNARY, FZ_U_log2, 0, FZ_UNARY, FZ_U_rsqrt, 0,
        FZ_UNARY, FZ_U_floor, 0, FZ_UNARY, FZ_U_ceil, 0, FZ_UNARY, FZ_U_neg, 0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_STOREM)
/* tl_libdevice by name: acos (row 12), erfinv, erfcx, atan2 of two values (k >= 250: the
   bad names and counts, which mutations reach) */
FZ_SEED(libdevice, FZ_HDR0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_LOADM,
        FZ_LIBDEVICE, 12, 0, FZ_LIBDEVICE, 35, 0, FZ_LIBDEVICE, 37, 0, FZ_LIBDEVICE, 39, 0, 1,
        FZ_IN(TL_F32), FZ_S1(5), FZ_STOREM)
/* tl_libdevice's integer functions on an i32 tile: popc, clz, brev, ffs, mulhi of two values,
   and the 32-bit ones: hadd and mul24 of two, sad and byte_perm of three */
FZ_SEED(libdevice_int, FZ_HDR0,
        FZ_IN(TL_I32), FZ_S1(5), FZ_LOADM,
        FZ_LIBDEVICE, 226, 0, FZ_LIBDEVICE, 227, 0, FZ_LIBDEVICE, 229, 0, FZ_LIBDEVICE, 228, 0, FZ_LIBDEVICE, 230, 0, 1,
        FZ_LIBDEVICE, 232, 0, 1, FZ_LIBDEVICE, 236, 0, 2, FZ_LIBDEVICE, 238, 0, 1, 2, FZ_LIBDEVICE, 240, 0, 1, 3,
        FZ_IN(TL_I32), FZ_S1(5), FZ_STOREM)
/* tl_inline_asm_elementwise, each on the one before (FZ_ASM's forms): i32 add, s32 to f32, f32 fma
   of three, f16 negated, u8 packed by 4 and bf16 by 2 (through the stack), u16 and by 2, f64
   squared and i64 add (not pure), f64 to s64, f32 abs. The interpreter refuses the kernel
   (TILE_ERR_NODEVICE); PTX mode compiles and assembles it */
FZ_SEED(inline_asm, FZ_HDR0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_LOADM,
        FZ_ASM, 0, 1, 0, 0, FZ_ASM, 14, 3, 0, FZ_ASM, 11, 1, 0, 1, 2, FZ_ASM, 4, 1, 0, FZ_ASM, 2, 3, 0,
        FZ_ASM, 5, 3, 0, FZ_ASM, 6, 1, 0, 1, FZ_ASM, 13, 0, 0, FZ_ASM, 8, 0, 0, 1, FZ_ASM, 16, 1, 0,
        FZ_ASM, 12, 1, 0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_STOREM)
/* tl_inline_asm_elementwise_n and Triton's registers of a pack (FZ_ASM's forms 17..21): an i32
   quotient and remainder of two, an i32 and its f32 of one, four i32 from the u8 of one register
   (pack 4), two i64 results of a pack of 2 (two l registers each), u8 pairs in an h register */
FZ_SEED(inline_asm_n, FZ_HDR0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_LOADM,
        FZ_ASM, 17, 1, 0, 1, FZ_ASM, 18, 3, 0, FZ_ASM, 19, 1, 0, FZ_ASM, 20, 1, 0, FZ_ASM, 21, 3, 0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_STOREM)
/* tl_map_elementwise, each on the one before (FZ_MAP's functions): a branchy max of two, a loop and
   a while of the element's trips, three results of a pack of 2 (a min, an i1, an f32), a pack of 4
   mixed, a load where the element is not 0 (p_f32), a map inside the function, two results through
   the stack, the one-result call */
FZ_SEED(map_elementwise, FZ_HDR0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_LOADM,
        FZ_MAP, 0, 4, 0, 0, FZ_MAP, 1, 4, 0, 1, FZ_MAP, 2, 4, 0, 1, FZ_MAP, 3, 1, 0, FZ_MAP, 4, 2, 2,
        FZ_MAP, 5, 0, FZ_D(TL_F32), 0, FZ_MAP, 6, 4, 0, 1, FZ_MAP, 7, 40, 0, 1, FZ_MAP, 0, 72, 0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_STOREM)
/* tl_libdevice's rounding-mode functions on an f32 tile, each on the one before: add_rz of two
   (k 25: mode 1), fma_rd of three in f64 (k 54 = 4 + 2 * 25), rcp_ru (80), sqrt_rn of a literal
   through the stack (6, flags 8 | 64, the literal 2.0), float2int_rd (63) of the rcp and int2float_ru (92),
   double2float_rz (33) of a cast; then yn and jn (240, 241) of an i32 order and the float, and the
   Bessel functions by their libm rows (j0: 46, cyl_bessel_i1: 51) */
FZ_SEED(libdevice_rounded, FZ_HDR0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_LOADM,
        FZ_ROUNDED, 25, 0, 0, 1, FZ_ROUNDED, 54, 32, 0, 1, 2, FZ_ROUNDED, 80, 0, 0, FZ_ROUNDED, 6, 8 | 64, FZ_LF(8), 0,
        FZ_ROUNDED, 63, 0, 1, FZ_ROUNDED, 92, 0, 0, FZ_ROUNDED, 33, 0, 0,
        FZ_ROUNDED, 240, 0, 0, 0, FZ_ROUNDED, 241, 0, 0, 0, FZ_LIBDEVICE, 46, 0, FZ_LIBDEVICE, 51, 0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_STOREM)
/* .propagate_nan: tl_maximum of the loaded tile and a NaN literal (160), tl_minimum of the tile
   and that through the stack, tl_max along 0 and tl_min with keep_dims, then tl_maximum without
   the option */
FZ_SEED(propagate_nan, FZ_HDR0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_LOADM, FZ_LIT_FLT, 160,
        FZ_NAN_MINMAX, 0, 1, 0, FZ_NAN_MINMAX, 3, 2, 0, FZ_NAN_MINMAX, 4, 0, 1, 0, FZ_NAN_MINMAX, 5, 0, 1, 2,
        FZ_NAN_MINMAX, 16, 3, 0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_STOREM)
/* tl_libdevice's functions of other dtypes (FZ_LIBDEVICE_MORE's k): isinf (11) of the loaded tile,
   norm4d (37) of four floats, ldexp (18) by the literal 3, pow (39) in f64 of an i32 n, fast_expf
   (21) through the stack, float_as_int (3), then abs (0) of that i32 */
FZ_SEED(libdevice_more, FZ_HDR0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_LOADM,
        FZ_LIBDEVICE_MORE, 11, 0, 0, FZ_LIBDEVICE_MORE, 37, 0, 0, 1, 1, 1, FZ_LIBDEVICE_MORE, 18, 32, FZ_LI(3), 0, 0,
        FZ_LIBDEVICE_MORE, 39, 8, 0, 0, FZ_LIBDEVICE_MORE, 21, 64, 0, FZ_LIBDEVICE_MORE, 3, 0, 0, FZ_LIBDEVICE_MORE, 0, 0, 0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_STOREM)
/* the integer ops on an i32 tile and literals; one through the operand stack */
FZ_SEED(int_ops, FZ_HDR0,
        FZ_IN(TL_I32), FZ_S1(5), FZ_LOADM,
        FZ_LIT_INT, FZ_I(5),
        FZ_BINARY, FZ_B_and, 1, 0, FZ_BINARY, FZ_B_xor, 0, 2, FZ_BINARY, FZ_B_shl, 0, 2, FZ_BINARY, FZ_B_shr, 0, 3,
        FZ_LIT_INT, FZ_I(3),
        FZ_BINARY, FZ_B_floordiv, 1, 0, FZ_BINARY, FZ_B_mod, 0, 1, FZ_BINARY, FZ_B_cdiv, 0, 2,
        FZ_BINARY, FZ_B_umulhi, 0, 1, FZ_BINARY, FZ_B_minimum, 0, 2, FZ_BINARY, FZ_B_maximum, 0, 1,
        FZ_BINARY, FZ_B_sub, 0, 1, FZ_BINARY, FZ_B_mul + FZ_B_COUNT_, 0, 1, FZ_UNARY, FZ_U_not, 0,
        FZ_IN(TL_I32), FZ_S1(5), FZ_STOREM)
/* comparisons, logical ops and tl_where */
FZ_SEED(compare_where, FZ_HDR0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_LOADM,
        FZ_LIT_FLT, FZ_F(0),
        FZ_BINARY, FZ_B_lt, 1, 0, FZ_BINARY, FZ_B_ge, 2, 1, FZ_BINARY, FZ_B_logical_or, 0, 1,
        FZ_BINARY, FZ_B_logical_and, 0, 2, FZ_BINARY, FZ_B_eq, 0, 1, FZ_BINARY, FZ_B_ne, 0, 2,
        FZ_TERNARY, 0, 0, 7, 6,
        FZ_IN(TL_F32), FZ_S1(5), FZ_STOREM)
/* fma and clamp, also through the stack; f16 meets f32 */
FZ_SEED(fma_clamp, FZ_HDR0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_LOADM,
        FZ_IN(TL_F16), FZ_S1(5), FZ_LOADM,
        FZ_TERNARY, 1, 1, 1, 0,
        FZ_LIT_FLT, FZ_F(-4), FZ_LIT_FLT, FZ_F(4),
        FZ_TERNARY, 2, 2, 1, 0,
        FZ_TERNARY, 4, 0, 0, 0,
        FZ_IN(TL_F16), FZ_S1(5), FZ_STOREM)
/* casts and bitcasts through every dtype */
FZ_SEED(cast_bitcast, FZ_HDR0,
        FZ_IN(TL_F16), FZ_S1(4), FZ_LOADM,
        FZ_CAST, 0, 0, FZ_D(TL_F32), FZ_BITCAST, 0, 0, FZ_CAST, 0, 0, FZ_D(TL_BF16), FZ_CAST, 0, 0, FZ_D(TL_F8E4M3),
        FZ_CAST, 0, 0, FZ_D(TL_F8E5M2), FZ_CAST, 0, 0, FZ_D(TL_U8), FZ_BITCAST, 0, 0, FZ_CAST, 0, 0, FZ_D(TL_I64),
        FZ_BITCAST, 0, 2, FZ_CAST, 0, 0, FZ_D(TL_I1), FZ_CAST, 0, 0, FZ_D(TL_U16), FZ_BITCAST, 0, 3,
        FZ_CAST, 0, 0, FZ_D(TL_F16), FZ_CAST, 0, 1, 3,
        FZ_IN(TL_BF16), FZ_S1(4), FZ_STOREM)
/* typed constants, tl_full, tl_zeros_like, tl_full_like */
FZ_SEED(literals_full, FZ_HDR0,
        FZ_LIT_TYPED, FZ_LI(7), FZ_D(TL_I8), FZ_LIT_TYPED, FZ_LF(2), FZ_D(TL_BF16), FZ_LIT_TYPED, 255, FZ_D(TL_U64),
        FZ_FULL, FZ_D(TL_F32), 0, FZ_LI(3), FZ_S2(3, 2),
        FZ_FULL, FZ_D(TL_I16), 1, 1, FZ_S2(3, 2),
        FZ_LIKE, 1, 0, FZ_LIKE, 0, 1, FZ_LF(6),
        FZ_BINARY, FZ_B_add, 0, 1, FZ_BINARY, FZ_B_add, 0, 3,
        FZ_IN(TL_F32), FZ_S2(3, 2), FZ_STOREM)
/* a 4 x 2 grid: each program stores its linear index into 8 slots */
FZ_SEED(program_id, 0, 4, 0, 7, 50, 3,
        FZ_PROGRAM_ID, 0, FZ_PROGRAM_ID, 1, FZ_PROGRAM_ID, 16,
        FZ_BINARY, FZ_B_mul, 1, 0, FZ_BINARY, FZ_B_add, 0, 3,
        FZ_LIT_INT, FZ_I(8), FZ_BINARY, FZ_B_mul, 1, 0,
        FZ_ARANGE, 0, 3, FZ_BINARY, FZ_B_add, 0, 1,
        FZ_PTR, FZ_D(TL_I32), 1, 0, FZ_STORE, 0, 1, 0, 0)
/* arange with odd starts, reshape (and view), ravel */
FZ_SEED(arange_reshape, FZ_HDR0,
        FZ_ARANGE, 0, 6,
        FZ_RESHAPE, 0, 8, 0, 0, 0, 1, 1, 1,
        FZ_RESHAPE, 0, 12, 0, 1, 2, 0, 1, 2,
        FZ_RAVEL, 0, FZ_RESHAPE, 0, 3, FZ_S2(4, 2),
        FZ_ARANGE, 4, 2, FZ_BINARY, FZ_B_add, 1, 0xf0,
        FZ_ARANGE, 6, 6, FZ_RESHAPE, 0, 3, FZ_S2(4, 2), FZ_BINARY, FZ_B_add, 0, 1,
        FZ_ARANGE, 9, 3, FZ_IN(TL_I32), FZ_S1(3), FZ_STORE, 0, 0, 0, 0,
        FZ_IN(TL_I32), FZ_S2(4, 2), FZ_STORE, 0, 0, 3, 0)
/* expand_dims, tl_broadcast, broadcast_to */
FZ_SEED(broadcast, FZ_HDR0,
        FZ_ARANGE, 0, 3, FZ_EXPAND, 0, 1, FZ_EXPAND, 1, 2,
        FZ_BCAST2, 0, 1, 0, FZ_BINARY, FZ_B_add, 0, 1,
        FZ_BCAST_TO, 0, 0, 1, 1,
        FZ_BCAST_TO, 12, 3, FZ_S1(4),
        FZ_BCAST2, 2, 3, 1, FZ_BINARY, FZ_B_add, 2, 0,
        FZ_IN(TL_I64), FZ_S3(1, 3, 3), FZ_STORE, 0, 0, 0, 0)
/* permute a 3-D tile, transpose 2-D and 3-D ones */
FZ_SEED(permute_trans, FZ_HDR0,
        FZ_IN(TL_F32), FZ_S3(1, 2, 3), FZ_LOADM,
        FZ_PERMUTE, 0, 0, 1, 0,
        FZ_TRANS, 0,
        FZ_RESHAPE, 0, 8, 0, 0, 0, 1, 1, 1,
        FZ_TRANS, 0, FZ_PERMUTE, 0, 0, 0,
        FZ_IN(TL_F32), FZ_S2(3, 3), FZ_STOREM)
/* cat, join, split, interleave (and cat through the stack) */
FZ_SEED(combine, FZ_HDR0,
        FZ_ARANGE, 0, 3, FZ_FULL, FZ_D(TL_I32), 0, FZ_LI(5), FZ_S1(3),
        FZ_COMBINE, 0, 1, 0, FZ_COMBINE, 1, 2, 1, FZ_SPLIT, 0,
        FZ_COMBINE, 2, 1, 0, FZ_COMBINE, 6, 0, 3,
        FZ_IN(TL_I32), FZ_S1(5), FZ_STOREM)
/* every reduction, along each axis, with keep_dims, a dtype, over TL_ALL */
FZ_SEED(reduce, FZ_HDR0,
        FZ_IN(TL_F32), FZ_S2(3, 2), FZ_LOADM,
        FZ_REDUCE, 0, 0, 1, 0, FZ_REDUCE, 1, 0, 1, 0,
        FZ_REDUCE, 2, 1, 2, 1, FZ_REDUCE, 3, 0, 1, 0, FZ_REDUCE, 4, 0, 1, 0,
        FZ_REDUCE, 6, 3, 251, 0, FZ_REDUCE, 0, 3, 251, 14, FZ_D(TL_F64),
        FZ_IN(TL_I32), FZ_S2(3, 2), FZ_LOADM, FZ_REDUCE, 5, 0, 251, 0,
        FZ_BINARY, FZ_B_add, 0, 1, FZ_BINARY, FZ_B_add, 0, 3, FZ_BINARY, FZ_B_add, 0, 5, FZ_BINARY, FZ_B_add, 0, 7,
        FZ_IN(TL_F32), FZ_S0, FZ_STORE, 0, 0, 0, 0)
/* cumsum and cumprod, reversed, with a dtype */
FZ_SEED(scan, FZ_HDR0,
        FZ_IN(TL_I16), FZ_S2(2, 3), FZ_LOADM,
        FZ_SCAN, 0, 0, 1, 0, FZ_SCAN, 1, 0, 2, 1, FZ_SCAN, 0, 0, 0, 14, FZ_D(TL_I64),
        FZ_IN(TL_I64), FZ_S2(2, 3), FZ_STOREM)
/* softmax along the rows of an f32 tile */
FZ_SEED(softmax, FZ_HDR0,
        FZ_IN(TL_F32), FZ_S2(3, 3), FZ_LOADM,
        FZ_SOFTMAX, 0, 2,
        FZ_IN(TL_F32), FZ_S2(3, 3), FZ_STOREM)
/* [16,16] x [16,16] f16 with an f32 accumulator, through the stack */
FZ_SEED(dot_f16, FZ_HDR0,
        FZ_DOT, 0, 0, 0, 0, 0x85,
        FZ_IN(TL_F32), FZ_S2(4, 4), FZ_STORE, 0, 0, 0, 0)
/* [32,32] x [32,16] i8 into an i32 accumulator, summed */
FZ_SEED(dot_i8, FZ_HDR0,
        FZ_DOT, 6, 5, 0, 0, 3, FZ_REDUCE, 0, 0, 251, 0,
        FZ_IN(TL_I32), FZ_S0, FZ_STORE, 0, 0, 0, 0)
/* f32 with IEEE and tf32x3 precision, bf16 to f32, e4m3 x e5m2 [16,32] x [32,32], each summed */
FZ_SEED(dot_f32_bf16_fp8, FZ_HDR0,
        FZ_DOT, 4, 0, 0, 0, 24, FZ_REDUCE, 0, 0, 251, 0, FZ_DOT, 4, 0, 0, 0, 18, FZ_REDUCE, 0, 0, 251, 0,
        FZ_DOT, 2, 0, 0, 0, 5, FZ_REDUCE, 0, 0, 251, 0, FZ_DOT, 0x80, 6, 0, 0, 0, FZ_REDUCE, 0, 0, 251, 0,
        FZ_BINARY, FZ_B_add, 0, 1, FZ_BINARY, FZ_B_add, 0, 3, FZ_BINARY, FZ_B_add, 0, 5,
        FZ_IN(TL_F32), FZ_S0, FZ_STORE, 0, 0, 0, 0)
/* batched dots, each summed: f16 [2,16,16] x [2,16,16] onto f32 zeros; i8 [2,32,16] x [2,16,16]
   (3 batches do not fit the buffers); e4m3 [4,16,16] x [4,16,16] through the stack, out_dtype f16 */
FZ_SEED(dot_batched, FZ_HDR0,
        FZ_DOT3, 0, 1, 1, 0, 0, FZ_REDUCE, 0, 0, 251, 0,
        FZ_DOT3, 3, 6, 0, 0, 0, FZ_REDUCE, 0, 0, 251, 0,
        FZ_DOT3, 0x84, 3, 3, 0, 0, FZ_REDUCE, 0, 0, 251, 0,
        FZ_IN(TL_F32), FZ_S0, FZ_STORE, 0, 0, 0, 0)
/* every atomic op on i32 and f32 tiles, masked, with semantics and scopes */
FZ_SEED(atomics, FZ_HDR0,
        FZ_IN(TL_I32), FZ_S1(4),
        FZ_ATOMIC, 0, 0, 0, 3, 0, FZ_ATOMIC, 1, 1, 1, 0, 1, FZ_ATOMIC, 2, 2, 2, 3, 10,
        FZ_ATOMIC, 3, 3, 3, 0, 3, FZ_ATOMIC, 4, 4, 4, 3, 20, FZ_ATOMIC, 5, 5, 5, 0, 0x80,
        FZ_ATOMIC, 6, 6, 6, 3, 2,
        FZ_IN(TL_F32), FZ_S1(4), FZ_ATOMIC, 0, 0, 0, 3, 0, FZ_ATOMIC, 1, 0, 3, 3, 0)
/* compare-and-swap on an i32 and an f64 tile */
FZ_SEED(cas, FZ_HDR0,
        FZ_IN(TL_I32), FZ_S1(3), FZ_CAS, 0, 5, 5, 0,
        FZ_IN(TL_F64), FZ_S1(3), FZ_CAS, 0, 1, 0, 0x85)
/* masked loads with other, other_v and -inf, cache and eviction hints, volatile, through the stack */
FZ_SEED(load_options, FZ_HDR0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_LOAD, 0, 4, 1, FZ_F(6), 1 | 8,
        FZ_LOAD, 1, 5, 2, 1, 2 | 16 | 0x80,
        FZ_LOAD, 2, 3, 3, 0x20 | 3,
        FZ_BINARY, FZ_B_add, 0, 1, FZ_BINARY, FZ_B_add, 0, 2,
        FZ_IN(TL_F32), FZ_S1(5), FZ_STORE, 0, 0, 3, 0x20 | 4)
/* acc += x, 8 times, in a TL_FOR carrying acc */
FZ_SEED(for_sum, FZ_HDR0,
        FZ_IN(TL_F32), FZ_S1(4), FZ_LOADM, FZ_LIKE, 1, 0,
        FZ_FOR, 0, 2, 8, 0, 1, 0,
        FZ_BINARY, FZ_B_add, 1, 2, FZ_SET, 1, FZ_END, 0,
        FZ_IN(TL_F32), FZ_S1(4), FZ_STOREM)
/* a loop counting down (step -2) around one whose bound is the outer
   induction variable, clamped; i64 bounds */
FZ_SEED(for_down_nested, FZ_HDR0,
        FZ_LIT_TYPED, FZ_LI(0), FZ_D(TL_I64),
        FZ_FOR, 16, 4, 6, 1, 1, 1, 1, 1, 0,
        FZ_FOR, 8, 2, 4, 0, 0, 0, 1, 1, 1,
        FZ_BINARY, FZ_B_add, 2, 0, FZ_SET, 1, FZ_END, 0,
        FZ_BINARY, FZ_B_add, 1, 0, FZ_SET, 1, FZ_END, 0,
        FZ_IN(TL_I64), FZ_S0, FZ_STORE, 0, 0, 0, 0)
/* TL_IF on the program id with a TL_ELSE, two carried values, over 2 programs */
FZ_SEED(if_else, 0, 4, 0, 1, 50, 3,
        FZ_IN(TL_F32), FZ_S1(3), FZ_LOADM, FZ_LIKE, 1, 0,
        FZ_IF, 1, 1, 2, 1, 0,
        FZ_UNARY, FZ_U_neg, 1, FZ_SET, 1, FZ_SET, 3,
        FZ_END, 1,
        FZ_BINARY, FZ_B_mul, 0, 1, FZ_SET, 1,
        FZ_END, 0,
        FZ_BINARY, FZ_B_add, 0, 1,
        FZ_IN(TL_F32), FZ_S1(3), FZ_STOREM)
/* TL_WHILE doubling a carried tile 5 times */
FZ_SEED(while_loop, FZ_HDR0,
        FZ_IN(TL_I32), FZ_S1(3), FZ_LOADM,
        FZ_WHILE, 5, 0, 1, 0,
        FZ_BINARY, FZ_B_add, 0, 0, FZ_SET, 1, FZ_END, 0,
        FZ_IN(TL_I32), FZ_S1(3), FZ_STOREM)
/* TL_FOR { TL_IF { TL_WHILE { } } TL_ELSE { } } with a carried scalar */
FZ_SEED(nested_control, FZ_HDR0,
        FZ_LIT_TYPED, FZ_LI(1), FZ_D(TL_I32),
        FZ_FOR, 0, 2, 4, 0, 1, 0,
        FZ_IF, 0, 0, 1, 1,
        FZ_WHILE, 3, 0, 1, 1,
        FZ_BINARY, FZ_B_add, 0, 0, FZ_SET, 1, FZ_END, 0,
        FZ_END, 1, FZ_LIT_INT, FZ_I(1), FZ_BINARY, FZ_B_sub, 1, 0, FZ_SET, 1, FZ_END, 0,
        FZ_END, 0,
        FZ_IN(TL_I32), FZ_S0, FZ_STORE, 0, 0, 0, 0)
/* TL_META_OR(BLOCK), TL_META(BLOCK) and TL_META_OR(K) (K = 4 given) as tile sizes */
FZ_SEED(meta, 0, 4 | 8 | (3 << 4), 0, 0, 50, 3,
        FZ_META, 0, FZ_META, 12, FZ_META, 8,
        FZ_BINARY, FZ_B_add, 0, 5,
        FZ_PTR, FZ_D(TL_I32), 1, 0, FZ_STORE, 0, 0, 0, 0)
/* tl_print, tl_device_assert (it holds), tl_debug_barrier */
FZ_SEED(debug_ops, FZ_HDR0,
        FZ_ARANGE, 0, 2, FZ_PRINT, 1, 0, FZ_ASSERT, 0, FZ_BARRIER,
        FZ_ASSERT, 2, 0, FZ_LI(40), FZ_PRINT, 2 | 12, 0, 1)
/* two launches from the cache, 8 warps, 2 stages, 2 programs; ops through the stack */
FZ_SEED(launch_options, 1, 4, 0x24, 1, 50, 3,
        FZ_IN(TL_F32), FZ_S1(5), FZ_LOAD, 0, 3, 0, 0x20,
        FZ_BINARY, FZ_B_mul + FZ_B_COUNT_, 0, 0, FZ_TERNARY, 4 | 2, 0, 0, 0,
        FZ_IN(TL_F32), FZ_S1(5), FZ_STORE, 0, 0, 3, 0x20)
/* tl_add(x, tl_add(x, ...)) 20 deep, as the macros push it */
FZ_SEED(deep_expr, FZ_HDR0,
        FZ_ARANGE, 0, 4, FZ_DEEP_EXPR, 20, 0,
        FZ_IN(TL_I32), FZ_S1(4), FZ_STOREM)
/* shapes read back while building: rank, a dim, a dtype */
FZ_SEED(query, FZ_HDR0,
        FZ_IN(TL_F16), FZ_S2(2, 3), FZ_LOADM,
        FZ_QUERY, 0, 0, FZ_QUERY, 1, 1, FZ_QUERY, 2, 2,
        FZ_BINARY, FZ_B_add, 3, 0, FZ_BINARY, FZ_B_add, 0, 2,
        FZ_IN(TL_F16), FZ_S2(2, 3), FZ_STOREM)
/* 32 nested TL_IF and TL_FOR, alternating */
FZ_SEED(deep_nest, FZ_HDR0,
        FZ_LIT_INT, FZ_I(9), FZ_DEEP, 0, 2)
/* must fail: [8] + [16] */
FZ_SEED(err_shape, FZ_HDR0,
        FZ_ARANGE, 0, 3, FZ_ARANGE, 0, 4, FZ_BINARY, FZ_B_add, 0, 0xf1)
/* must fail: a value made in a TL_FOR body used after it */
FZ_SEED(err_scope, FZ_HDR0,
        FZ_FOR, 0, 2, 2, 0, 0, FZ_ARANGE, 0, 3, FZ_END, 30,
        FZ_IN(TL_I32), FZ_S1(3), FZ_STORE, 0, 0, 0, 0)
/* must fail: a grid too large */
FZ_SEED(err_launch, 0, 4, 0, 0xff, 50, 3,
        FZ_ARANGE, 0, 3)
/* must fail: BLOCK given twice */
FZ_SEED(err_meta, 0xf0 | (3 << 1), 4, 0, 0, 50, 0,
        FZ_META, 0)

#define FZ_SEED_ENTRY(name) {#name, fz_seed_##name, sizeof fz_seed_##name},
static const fz_seed fz_seeds[] = {FZ_SEEDS(FZ_SEED_ENTRY)};
#undef FZ_SEED_ENTRY

#endif
