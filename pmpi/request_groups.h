/*
 * Live requests that share one handle value, beyond the few the request
 * table keeps near the value's home slot (requests.c). MPI libraries give
 * one handle to many requests at once: MPICH to every send that completed
 * eagerly inside its call, Open MPI to every send to MPI_PROC_NULL. A code
 * that posts a thousand small sends and then waits for them all holds a
 * thousand live requests of one value.
 *
 * A value's group keeps its requests in creation order, in chunks of 63
 * slots whose addresses never change, so that
 *  - a completion finds the request returned to the address it passes in
 *    one step when requests complete in the order they were created (an
 *    MPI_Waitall or MPI_Waitany of an array), and
 *  - a completion of a handle copied elsewhere (returned to a temporary,
 *    then stored in an array) takes the oldest request of the value not
 *    yet taken by the call: none is lost, whatever the count.
 *
 * An entry is an ms_hmap_slot (its key the handle value, its value the
 * caller's) whose value begins with two words: the address the handle was
 * returned to and the token of the completion call that took it (0: none).
 * A group's entries are added, found and erased under one lock; only values
 * held by more than a few live requests at once come here. Chunks emptied
 * are kept for the group's next entries: memory follows the most requests
 * of one value live at once, never the run's length.
 */
#ifndef MPISCOPE_REQUEST_GROUPS_H
#define MPISCOPE_REQUEST_GROUPS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "handle_map.h"

/* Offsets of the two words every entry's value begins with. */
#define MS_REQGROUP_WHERE 0u
#define MS_REQGROUP_CLAIM 1u

/* Set once any entry was added: until then no lookup needs to come here. */
extern MS_HIDDEN _Atomic int ms_reqgroup_used;

/* A new entry of key (> MS_HMAP_BUSY) after all others of its value,
 * holding `value` (len <= MS_HMAP_VALUE bytes, the rest zero). NULL only
 * when no memory is left. */
MS_HIDDEN ms_hmap_slot *ms_reqgroup_add(uint64_t key, const void *value, size_t len);

/* The oldest entry of key returned to `where` and not taken by token; if
 * none and `any`, the oldest not taken by token. Taken by token (when not
 * 0). NULL when none. */
MS_HIDDEN ms_hmap_slot *ms_reqgroup_find(uint64_t key, uint64_t where, uint64_t token, int any);

/* An entry leaves its group (once: erasing it again does nothing). */
MS_HIDDEN void ms_reqgroup_erase(ms_hmap_slot *slot);

/* Live entries of key, and chunks allocated in all (for tests). */
MS_HIDDEN uint64_t ms_reqgroup_live(uint64_t key);
MS_HIDDEN uint64_t ms_reqgroup_chunks(void);

#endif
