#ifndef LANES_CGIT2_SHIM_H
#define LANES_CGIT2_SHIM_H
#include <git2.h>
#include <zlib.h>
#include <openssl/crypto.h>

/* libgit2 starts libssh2, which starts OpenSSL, which by default frees its global state in an
   atexit handler: a thread still inside OpenSSL while the process exits then takes a freed lock.
   Start OpenSSL without that handler first (LanesSigning does the same). OpenSSL's header and
   library come from COpenSSL, which every target importing CGit2 also depends on. */
static inline int lanes_git_init(void) {
    OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
    return git_libgit2_init();
}

/* inflateInit is a macro; the commit counter inflates pack entries itself. */
static inline int lanes_inflate_init(z_stream *stream) {
    return inflateInit(stream);
}
#endif
