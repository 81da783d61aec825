#ifndef RACEKIT_CMALLOC_SHIM_H
#define RACEKIT_CMALLOC_SHIM_H
// glibc's allocator settings (mallopt); part of libc, nothing to link.
// Elsewhere (not glibc) the call below does nothing.
#if defined(__linux__)
#include <malloc.h>
#endif

// glibc's allocator set for a program that reads file after file (racekit, and
// racekit-gen's decode benchmark, which measures a reader as racekit runs it).
// Blocks under 1 MB come from the heap, and the heap is not trimmed, so a
// folder's per-file buffers are reused instead of going back to the kernel
// after every file to be faulted in again (zeroed) for the next; blocks of 1 MB
// and more (a large file's samples) are still mapped and unmapped, so a peak
// stays what it was. 1,000 GPX files: 3.49 -> 3.32 s, 6.21 -> 5.88 s of CPU,
// peak RSS 43 -> 47 MB; a 100 MB GPX with 300 files on two workers: peak 104 ->
// 103 MB (2026-11-28, same build, env tunables). With 64 MB blocks from the
// heap the folder gained 2% more but that peak grew to 154 MB: freed blocks
// stay in one thread's arena while the other allocates.
static inline void racekit_keep_freed_memory(void) {
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}
#endif
