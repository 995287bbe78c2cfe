#ifndef LANES_CGIT2_SHIM_H
#define LANES_CGIT2_SHIM_H
#include <git2.h>
#include <zlib.h>

/* inflateInit is a macro; the commit counter inflates pack entries itself. */
static inline int lanes_inflate_init(z_stream *stream) {
    return inflateInit(stream);
}
#endif
