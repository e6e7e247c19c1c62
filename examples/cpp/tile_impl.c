/* examples/cpp/tile_impl.c — the implementation for the C++ tutorials: tile
   is C11, so its implementation is compiled by a C compiler in one C file
   of the program; the C++ files include tile.hpp for the language. */
#define TILE_IMPLEMENTATION
#include "tile.h"
