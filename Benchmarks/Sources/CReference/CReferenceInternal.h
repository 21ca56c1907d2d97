#ifndef CREFERENCE_INTERNAL_H
#define CREFERENCE_INTERNAL_H
#include <stdint.h>

/// What `ObservedChange<Int>` carries: old and new (optional), the kind, indexes and the key path.
typedef struct {
    int64_t old_value;
    uint8_t has_old, kind;
    int64_t new_value;
    uint8_t has_new;
    const void *indexes;
    const void *key_path;
} creference_change;

/// The counter the handlers share (a heap object's header, then the count).
typedef struct {
    int64_t header[2];
    int64_t count;
} creference_sink;

typedef void (*creference_function)(void *object, const creference_change *change, creference_sink *sink);

void creference_handler(void *object, const creference_change *change, creference_sink *sink);

#endif
