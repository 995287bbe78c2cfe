#ifndef LANES_CGIT2_SHIM_H
#define LANES_CGIT2_SHIM_H
#include <git2.h>
#endif
