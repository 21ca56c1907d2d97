#ifndef CHEAPINFO_H
#define CHEAPINFO_H
#include <stddef.h>
#if defined(__linux__)
#include <malloc.h>
#endif

/// Bytes currently allocated by malloc, mmapped blocks included (glibc's mallinfo2); 0 where unavailable.
static inline size_t cheapinfo_heap_in_use(void) {
#if defined(__GLIBC__)
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;   // small chunks + mmapped blocks (large arrays)
#else
    return 0;
#endif
}

/// Whether cheapinfo_heap_in_use() measures anything on this platform.
static inline int cheapinfo_available(void) {
#if defined(__GLIBC__)
    return 1;
#else
    return 0;
#endif
}

/// Heap allocations (malloc, calloc, realloc of NULL, the aligned forms) made by the calling thread
/// since it started; -1 where the allocator cannot be interposed (see AllocationCounter.c).
long cheapinfo_allocations(void);
#endif
