#ifndef LANES_MD5_LANES_H
#define LANES_MD5_LANES_H

#include <stddef.h>
#include <stdint.h>

/// The number of independent messages one call advances together.
#define LANES_MD5_WIDTH 8

/// How many builds of the kernel this CPU can run (at least 1). Kernel 0 is the fastest; the others
/// exist so that every build can be checked on a CPU that runs it.
size_t lanes_md5_kernel_count(void);

/// The instruction set kernel `kernel` is built for: "avx512vl", "avx2" or "generic".
const char *lanes_md5_kernel_name(size_t kernel);

/// The MD5 compression function (RFC 1321, section 3.4) applied to eight independent messages at
/// once, one per 32-bit lane of a vector: `state` holds A[8], B[8], C[8], D[8]; lane i reads
/// `blocks` 64-byte blocks from `messages[i]`. Every lane advances by the same number of blocks.
void lanes_md5_compress_lanes(size_t kernel, uint32_t state[4 * LANES_MD5_WIDTH], const uint8_t *const messages[LANES_MD5_WIDTH],
                              size_t blocks);

#endif
