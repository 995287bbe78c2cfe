/* The part of Libc-1725.0.11 include/string.h that lanes' C targets use, for compiling them for
   arm64-apple-macosx15.0 with clang's freestanding headers (stdint.h, stddef.h) and no glibc header. */
#ifndef LANES_DARWIN_STUB_STRING_H
#define LANES_DARWIN_STUB_STRING_H
#include <stddef.h>
void *memcpy(void *__dst, const void *__src, size_t __n);
void *memset(void *__b, int __c, size_t __len);
int memcmp(const void *__s1, const void *__s2, size_t __n);
size_t strlen(const char *__s);
#endif
