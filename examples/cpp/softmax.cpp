/* examples/cpp/softmax.cpp — Triton's tutorial 02 in C++: a row-wise softmax.

   The kernel of examples/softmax.c with tile.hpp's operators (the same IR:
   tests/golden.sh): each program takes rows program_id, program_id +
   num_programs, ...; a row is one BLOCK-wide tile (BLOCK the next power of
   two of the row length), its lanes past the end masked and read as -inf.
   Checked against a float64 softmax. */
#include "tile.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

TILE_KERNEL(softmax_kernel, (tl_ptr_f32, output_ptr), (tl_ptr_f32, input_ptr),
            (tl_i32, input_row_stride), (tl_i32, output_row_stride), (tl_i32, n_rows), (tl_i32, n_cols))
{
    int BLOCK = TL_META(BLOCK);
    tl::tensor col_offsets = tl::arange(0, BLOCK);
    tl::tensor mask        = col_offsets < n_cols;
    TL_FOR (row_idx, tl::program_id(0), n_rows, tl::num_programs(0)) {
        tl::tensor row_start_ptr  = input_ptr + row_idx * input_row_stride;
        tl::tensor row            = tl::load(row_start_ptr + col_offsets, {.mask = mask, .other = -INFINITY});
        tl::tensor row_minus_max  = row - tl::max(row, 0);
        tl::tensor numerator      = tl::exp(row_minus_max);
        tl::tensor denominator    = tl::sum(numerator, 0);
        tl::tensor softmax_output = numerator / denominator;
        tl::tensor out_start_ptr  = output_ptr + row_idx * output_row_stride;
        tl::store(out_start_ptr + col_offsets, softmax_output, {.mask = mask});
    }
}

static float uniform(float lo, float hi) { return lo + (hi - lo) * (float)std::rand() / (float)RAND_MAX; }
static int next_power_of_2(int n)
{
    int p = 1;
    while (p < n) p *= 2;
    return p;
}

int main()
{
    const int ROWS = 256, COLS = 781, IN_STRIDE = 800, PROGRAMS = 64;
    size_t in_bytes = ROWS * IN_STRIDE * sizeof(float), out_bytes = ROWS * COLS * sizeof(float);
    std::vector<float> hin(ROWS * IN_STRIDE), hout(ROWS * COLS);
    std::srand((unsigned)std::time(nullptr));
    for (float &v : hin) v = uniform(-8, 8);              // the padding too: it must not matter

    float *in = (float *)tile_malloc(in_bytes), *out = (float *)tile_malloc(out_bytes);
    if (!in || !out) {
        std::fprintf(stderr, "softmax: out of memory\n");
        return 1;
    }
    tile_memcpy_htod(in, hin.data(), in_bytes);
    tile_memset(out, 0xff, out_bytes);                    // NaN: a lane never written shows

    tile_status st = softmax_kernel(tl::opts({.grid = {PROGRAMS}, .meta = {{"BLOCK", next_power_of_2(COLS)}}}),
                                    out, in, IN_STRIDE, COLS, ROWS, COLS);
    if (st != TILE_OK) std::fprintf(stderr, "%s\n", tile_last_error());
    tile_memcpy_dtoh(hout.data(), out, out_bytes);

    double err = 0;                                       // relative; a NaN sticks
    for (int r = 0; r < ROWS; r++) {
        const float *x = hin.data() + r * IN_STRIDE;
        double max = x[0], sum = 0;
        for (int c = 1; c < COLS; c++) max = std::fmax(max, x[c]);
        for (int c = 0; c < COLS; c++) sum += std::exp(x[c] - max);
        for (int c = 0; c < COLS; c++) {
            double want = std::exp(x[c] - max) / sum;
            double e = std::fabs(hout[r * COLS + c] - want) / want;
            if (e > err || e != e) err = e;
        }
    }
    bool ok = st == TILE_OK && err <= 1e-5;               // f32 exp and a 781-term f32 sum
    std::printf("softmax (C++): %d x %d (BLOCK %d, %d programs), max rel error %.3g vs C reference: %s\n",
                ROWS, COLS, next_power_of_2(COLS), PROGRAMS, err, ok ? "OK" : "FAILED");

    tile_free(in);
    tile_free(out);
    tile_kernel_release(TILE_KERNEL_OF(softmax_kernel));
    return ok ? 0 : 1;
}
