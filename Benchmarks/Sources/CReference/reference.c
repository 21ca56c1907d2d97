#include <stdlib.h>
#include "CReference.h"
#include "CReferenceInternal.h"

/// One observation, laid out like ours: header (class, reference count), state, then the fields a
/// set reads.
typedef struct {
    const void *isa;
    int64_t reference_count;
    uint8_t state;            // 1 live, 0 ended
    const void *notify[2];
    const void *key_path;
    const void *list;
    creference_function function;
    creference_sink *context;
} observation;

struct CReferenceModel {
    int64_t header[2];
    int64_t value;
    observation **slots;
    long count;
    creference_sink sink;
};

static const char observation_class = 0;
static const char key_path = 0;

/// Whether a set calls this slot's entry itself: not a hole, of the class it knows, and live.
static inline int calls(const observation *entry) {
    return entry && entry->isa == &observation_class && __atomic_load_n(&entry->state, __ATOMIC_ACQUIRE);
}

CReferenceModel *creference_model(long observers) {
    CReferenceModel *model = calloc(1, sizeof *model);
    model->slots = calloc((size_t)observers, sizeof *model->slots);
    model->count = observers;
    for (long index = 0; index < observers; index++) {
        observation *entry = calloc(1, sizeof *entry);
        entry->isa = &observation_class;
        entry->reference_count = 1;
        entry->state = 1;
        entry->key_path = &key_path;
        entry->list = model;
        entry->function = creference_handler;
        entry->context = &model->sink;
        model->slots[index] = entry;
    }
    return model;
}

void creference_set(CReferenceModel *model, int64_t value) {
    int64_t old_value = model->value;
    model->value = value;
    creference_change change = {old_value, 1, 0, value, 1, NULL, NULL};
    for (observation **slot = model->slots, **end = slot + model->count; slot < end; slot++) {
        observation *entry = *slot;
        if (!calls(entry)) continue;
        change.key_path = entry->key_path;
        entry->function(model, &change, entry->context);
    }
}

void creference_set_relaid(CReferenceModel *model, int64_t value) {
    int64_t old_value = model->value;
    model->value = value;
    for (observation **slot = model->slots, **end = slot + model->count; slot < end; slot++) {
        observation *entry = *slot;
        if (!calls(entry)) continue;
        creference_change change;   // field by field, as Swift stores it (no padding zeroed)
        change.old_value = old_value;
        change.has_old = 1;
        change.kind = 0;
        change.new_value = value;
        change.has_new = 1;
        change.indexes = NULL;
        change.key_path = entry->key_path;
        entry->function(model, &change, entry->context);
    }
}

int64_t creference_total(const CReferenceModel *model) {
    return model->sink.count;
}
