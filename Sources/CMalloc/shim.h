#ifndef RACEKIT_CMALLOC_SHIM_H
#define RACEKIT_CMALLOC_SHIM_H
// glibc's allocator settings (mallopt); part of libc, nothing to link.
#include <malloc.h>
#endif
