#ifndef LANES_CZLIB_SHIM_H
#define LANES_CZLIB_SHIM_H
#include <zlib.h>

// zlib spells its stream initialisers as macros (they pass the version and struct size), which Swift cannot call.
static inline int lanes_deflateInit2(z_streamp stream, int level, int windowBits) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}
static inline int lanes_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}
#endif
