#ifndef CREFERENCE_H
#define CREFERENCE_H
#include <stdint.h>

/// A reference point for "set, N observers", not a contender: the least a set that calls N
/// independent observers must do, written in C. Each observation is a heap record like ours (class
/// word, state byte, key path, handler function and context); a set stores the value, builds one
/// change (old, new, key path) and walks the table: it skips holes, tests each entry's class and
/// live state (an acquiring load, as a cancel on another thread requires), sets the change's key
/// path and calls the handler through its function pointer with a pointer to the change. The
/// handler (in another translation unit, so that the compiler cannot see it leaves the change
/// alone) does what the Swift benchmarks' handlers do: unwraps old and new and adds them into one
/// shared counter.
typedef struct CReferenceModel CReferenceModel;

/// A model with `observers` live observations of its one property.
CReferenceModel *creference_model(long observers);

/// Sets the property to `value`, notifying every observation with the old and the new value.
void creference_set(CReferenceModel *model, int64_t value);

/// `creference_set` with the change laid out again on the stack for every call, as Swift does for a
/// closure that takes its argument indirectly (see BENCHMARKS.md, "Targets not met").
void creference_set_relaid(CReferenceModel *model, int64_t value);

/// What the handlers have added up so far.
int64_t creference_total(const CReferenceModel *model);

#endif
