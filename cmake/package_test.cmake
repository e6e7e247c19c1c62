# package_test.cmake — the `package` CTest: install tile into a scratch
# prefix, then build and run tests/compile/consumer three ways, as a user would:
#   1. a CMake project with find_package(tile) and tile::tile;
#   2. a plain compiler line with the flags from tile.pc (pkg-config, or the
#      .pc file read directly where pkg-config is not installed);
#   3. a CMake project that adds the source tree with add_subdirectory (as
#      FetchContent does): tile's -Werror and its own targets stay off.
# Run with cmake -P; the variables come from CMakeLists.txt.
cmake_minimum_required(VERSION 3.20)
foreach(v TILE_SOURCE_DIR TILE_BINARY_DIR TILE_WORK_DIR TILE_C_COMPILER TILE_GENERATOR)
    if(NOT DEFINED ${v})
        message(FATAL_ERROR "package_test.cmake: ${v} is not set")
    endif()
endforeach()

function(run what)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "package test: ${what} failed (${rc}): ${ARGN}")
    endif()
endfunction()

set(prefix ${TILE_WORK_DIR}/prefix)
set(consumer ${TILE_SOURCE_DIR}/tests/compile/consumer)
file(REMOVE_RECURSE ${TILE_WORK_DIR})
file(MAKE_DIRECTORY ${TILE_WORK_DIR})

message(STATUS "---- install into ${prefix}")
run("install" ${CMAKE_COMMAND} --install ${TILE_BINARY_DIR} --prefix ${prefix})
foreach(f include/tile.h include/tile_lang.h include/tile/ir.h
          share/cmake/tile/tileConfig.cmake share/cmake/tile/tileConfigVersion.cmake
          share/cmake/tile/tileTargets.cmake share/pkgconfig/tile.pc)
    if(NOT EXISTS ${prefix}/${f})
        message(FATAL_ERROR "package test: ${f} was not installed")
    endif()
endforeach()

message(STATUS "---- find_package(tile) from a separate project")
run("configure consumer" ${CMAKE_COMMAND} -S ${consumer} -B ${TILE_WORK_DIR}/cmake
    -G ${TILE_GENERATOR} -DCMAKE_C_COMPILER=${TILE_C_COMPILER}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
run("build consumer" ${CMAKE_COMMAND} --build ${TILE_WORK_DIR}/cmake)
run("run consumer (find_package)" ${TILE_WORK_DIR}/cmake/consumer)

message(STATUS "---- pkg-config")
file(READ ${prefix}/share/pkgconfig/tile.pc pc)
find_program(PKG_CONFIG NAMES pkg-config pkgconf)
if(PKG_CONFIG)
    set(ENV{PKG_CONFIG_PATH} ${prefix}/share/pkgconfig)
    execute_process(COMMAND ${PKG_CONFIG} --cflags tile OUTPUT_VARIABLE cflags
                    RESULT_VARIABLE rc1 OUTPUT_STRIP_TRAILING_WHITESPACE)
    execute_process(COMMAND ${PKG_CONFIG} --libs tile OUTPUT_VARIABLE libs
                    RESULT_VARIABLE rc2 OUTPUT_STRIP_TRAILING_WHITESPACE)
    execute_process(COMMAND ${PKG_CONFIG} --modversion tile OUTPUT_VARIABLE version
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
        message(FATAL_ERROR "package test: pkg-config cannot read tile.pc:\n${pc}")
    endif()
    message(STATUS "pkg-config tile ${version}: ${cflags} ${libs}")
else()
    # No pkg-config here: expand the two variables of tile.pc by hand.
    string(REGEX MATCH "\nincludedir=([^\n]*)" _ "${pc}")
    string(REPLACE "\${prefix}" "${prefix}" includedir "${CMAKE_MATCH_1}")
    string(REGEX MATCH "\nCflags: ([^\n]*)" _ "${pc}")
    string(REPLACE "\${includedir}" "${includedir}" cflags "${CMAKE_MATCH_1}")
    string(REGEX MATCH "\nLibs: ([^\n]*)" _ "${pc}")
    set(libs "${CMAKE_MATCH_1}")
    message(STATUS "pkg-config not installed; tile.pc says: ${cflags} ${libs}")
endif()
separate_arguments(cflags UNIX_COMMAND "${cflags}")
separate_arguments(libs UNIX_COMMAND "${libs}")
run("compile with tile.pc's flags" ${TILE_C_COMPILER} -std=c11 ${cflags}
    ${consumer}/main.c -o ${TILE_WORK_DIR}/consumer_pc ${libs})
run("run consumer (pkg-config)" ${TILE_WORK_DIR}/consumer_pc)

message(STATUS "---- add_subdirectory(tile) from a separate project")
set(sub ${TILE_WORK_DIR}/subdir)
file(MAKE_DIRECTORY ${sub}/src)
file(WRITE ${sub}/src/CMakeLists.txt
     "cmake_minimum_required(VERSION 3.20)\n"
     "project(tile_subdir LANGUAGES C CXX)\n"
     "add_subdirectory(\"${TILE_SOURCE_DIR}\" tile)\n"
     "add_executable(consumer \"${consumer}/main.c\")\n"
     "target_link_libraries(consumer PRIVATE tile::tile)\n")
run("configure add_subdirectory consumer" ${CMAKE_COMMAND} -S ${sub}/src -B ${sub}/build
    -G ${TILE_GENERATOR} -DCMAKE_C_COMPILER=${TILE_C_COMPILER} -DCMAKE_BUILD_TYPE=Release)
file(STRINGS ${sub}/build/CMakeCache.txt werror REGEX "^TILE_WERROR:")
file(STRINGS ${sub}/build/CMakeCache.txt tests REGEX "^TILE_BUILD_TESTS:")
if(NOT werror STREQUAL "TILE_WERROR:BOOL=OFF" OR NOT tests STREQUAL "TILE_BUILD_TESTS:BOOL=OFF")
    message(FATAL_ERROR "package test: as a subproject tile has ${werror} and ${tests} (both must default to OFF)")
endif()
run("build add_subdirectory consumer" ${CMAKE_COMMAND} --build ${sub}/build)
run("run consumer (add_subdirectory)" ${sub}/build/consumer)
