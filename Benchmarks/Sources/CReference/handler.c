#include <stdlib.h>
#include "CReferenceInternal.h"

// A translation unit of its own: the delivery loop must pass the change as an opaque pointer.
void creference_handler(void *object, const creference_change *change, creference_sink *sink) {
    (void)object;
    if (!change->has_old || !change->has_new) abort();   // the Swift handlers' `!`
    sink->count += change->old_value + change->new_value;
}
