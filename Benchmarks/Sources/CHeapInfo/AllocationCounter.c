// Counts heap allocations made by this thread, for the speed gate's allocations per operation.
//
// glibc lets a program interpose the allocator: these definitions in the executable take the place of
// libc's for every caller (the Swift runtime included) and forward to glibc's own entry points. The
// count is thread-local and not atomic, so it costs every contender the same single increment.
// Elsewhere the functions are not defined and cheapinfo_allocations() returns -1.
#include "CHeapInfo.h"

#if defined(__GLIBC__)
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static __thread long allocations;

long cheapinfo_allocations(void) { return allocations; }

void *malloc(size_t size) {
    allocations++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    allocations++;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    if (pointer == NULL) allocations++;
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    allocations++;
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    allocations++;
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    allocations++;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return 12;  // ENOMEM
    *result = pointer;
    return 0;
}
#else
long cheapinfo_allocations(void) { return -1; }
#endif
