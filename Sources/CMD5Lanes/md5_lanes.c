// Eight MD5 computations in lockstep, written from RFC 1321 with the compiler's vector extensions:
// one vector operation does a step of all eight messages. On x86_64 the widest instruction set the
// CPU has is picked at run time; elsewhere the generic code maps to the CPU's own vectors.
#include "md5_lanes.h"
#include <string.h>

typedef uint32_t lanes_vector __attribute__((vector_size(4 * LANES_MD5_WIDTH)));

// T[i] = floor(abs(sin(i + 1)) * 2^32), the table of RFC 1321 section 3.4.
static const uint32_t T[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

#define ROTATE(x, n) (((x) << (n)) | ((x) >> (32 - (n))))
#define F(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define G(x, y, z) ((y) ^ ((z) & ((x) ^ (y))))
#define H(x, y, z) ((x) ^ (y) ^ (z))
#define I(x, y, z) ((y) ^ ((x) | ~(z)))
#define STEP(f, a, b, c, d, word, i, s) a = (b) + ROTATE((a) + f(b, c, d) + (word) + T[i], s)

// A little-endian 32-bit word, whatever the CPU's byte order.
static inline uint32_t load_le32(const uint8_t *bytes) {
    return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
}

static inline __attribute__((always_inline))
void compress(uint32_t state[4 * LANES_MD5_WIDTH], const uint8_t *const messages[LANES_MD5_WIDTH], size_t blocks) {
    lanes_vector A, B, C, D;
    memcpy(&A, state, sizeof A);
    memcpy(&B, state + LANES_MD5_WIDTH, sizeof B);
    memcpy(&C, state + 2 * LANES_MD5_WIDTH, sizeof C);
    memcpy(&D, state + 3 * LANES_MD5_WIDTH, sizeof D);
    for (size_t block = 0; block < blocks; block++) {
        // X[k] holds word k of the current block of every message.
        lanes_vector X[16];
        for (int k = 0; k < 16; k++) {
            uint32_t words[LANES_MD5_WIDTH];
            for (int lane = 0; lane < LANES_MD5_WIDTH; lane++) words[lane] = load_le32(messages[lane] + block * 64 + k * 4);
            memcpy(&X[k], words, sizeof words);
        }
        lanes_vector a = A, b = B, c = C, d = D;
        for (int i = 0; i < 16; i += 4) {
            STEP(F, a, b, c, d, X[i], i, 7);
            STEP(F, d, a, b, c, X[i + 1], i + 1, 12);
            STEP(F, c, d, a, b, X[i + 2], i + 2, 17);
            STEP(F, b, c, d, a, X[i + 3], i + 3, 22);
        }
        for (int i = 16; i < 32; i += 4) {
            STEP(G, a, b, c, d, X[(5 * i + 1) & 15], i, 5);
            STEP(G, d, a, b, c, X[(5 * i + 6) & 15], i + 1, 9);
            STEP(G, c, d, a, b, X[(5 * i + 11) & 15], i + 2, 14);
            STEP(G, b, c, d, a, X[(5 * i + 16) & 15], i + 3, 20);
        }
        for (int i = 32; i < 48; i += 4) {
            STEP(H, a, b, c, d, X[(3 * i + 5) & 15], i, 4);
            STEP(H, d, a, b, c, X[(3 * i + 8) & 15], i + 1, 11);
            STEP(H, c, d, a, b, X[(3 * i + 11) & 15], i + 2, 16);
            STEP(H, b, c, d, a, X[(3 * i + 14) & 15], i + 3, 23);
        }
        for (int i = 48; i < 64; i += 4) {
            STEP(I, a, b, c, d, X[(7 * i) & 15], i, 6);
            STEP(I, d, a, b, c, X[(7 * i + 7) & 15], i + 1, 10);
            STEP(I, c, d, a, b, X[(7 * i + 14) & 15], i + 2, 15);
            STEP(I, b, c, d, a, X[(7 * i + 21) & 15], i + 3, 21);
        }
        A += a;
        B += b;
        C += c;
        D += d;
    }
    memcpy(state, &A, sizeof A);
    memcpy(state + LANES_MD5_WIDTH, &B, sizeof B);
    memcpy(state + 2 * LANES_MD5_WIDTH, &C, sizeof C);
    memcpy(state + 3 * LANES_MD5_WIDTH, &D, sizeof D);
}

static void compress_generic(uint32_t state[4 * LANES_MD5_WIDTH], const uint8_t *const messages[LANES_MD5_WIDTH], size_t blocks) {
    compress(state, messages, blocks);
}

#if defined(__x86_64__)
// The same code compiled for wider registers; AVX-512VL adds a one-instruction rotate.
__attribute__((target("avx2")))
static void compress_avx2(uint32_t state[4 * LANES_MD5_WIDTH], const uint8_t *const messages[LANES_MD5_WIDTH], size_t blocks) {
    compress(state, messages, blocks);
}

__attribute__((target("avx512f,avx512vl")))
static void compress_avx512vl(uint32_t state[4 * LANES_MD5_WIDTH], const uint8_t *const messages[LANES_MD5_WIDTH], size_t blocks) {
    compress(state, messages, blocks);
}
#endif

typedef void (*kernel_function)(uint32_t *, const uint8_t *const *, size_t);

struct kernel {
    const char *name;
    kernel_function function;
};

// Fills `kernels` with the builds this CPU runs, fastest first; returns how many. Asking the CPU is
// cheap (the compiler's runtime reads it once at start), so nothing is cached.
static size_t available(struct kernel kernels[3]) {
    size_t count = 0;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx512vl")) kernels[count++] = (struct kernel){"avx512vl", compress_avx512vl};
    if (__builtin_cpu_supports("avx2")) kernels[count++] = (struct kernel){"avx2", compress_avx2};
#endif
    kernels[count++] = (struct kernel){"generic", compress_generic};
    return count;
}

size_t lanes_md5_kernel_count(void) {
    struct kernel kernels[3];
    return available(kernels);
}

const char *lanes_md5_kernel_name(size_t kernel) {
    struct kernel kernels[3];
    size_t count = available(kernels);
    return kernel < count ? kernels[kernel].name : "none";
}

void lanes_md5_compress_lanes(size_t kernel, uint32_t state[4 * LANES_MD5_WIDTH], const uint8_t *const messages[LANES_MD5_WIDTH],
                              size_t blocks) {
    struct kernel kernels[3];
    size_t count = available(kernels);
    kernels[kernel < count ? kernel : 0].function(state, messages, blocks);
}
