/* Compile test: the whole implementation as one C11 translation unit, in
   the stb way -- the header included once for declarations, then again under
   TILE_IMPLEMENTATION. Compiled with -fsyntax-only under -std=c11 -Wall
   -Wextra -Werror -pedantic by gcc and clang (see CMakeLists.txt). The same
   file is linked with cxx.cpp into the `cxx_link` test, which checks that the
   C++ declarations (extern "C") match the C definitions. */
#include "tile.h"

#define TILE_IMPLEMENTATION
#include "tile.h"
#include "tile.h" /* a third include is harmless */
