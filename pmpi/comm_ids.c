/*
 * Communicator ids (DESIGN §4): 0 is MPI_COMM_WORLD, 1 is MPI_COMM_SELF; every
 * other communicator's id is derived, on each member and without any message,
 * from its parent's id, the parent's creation sequence number and the world
 * rank of the new communicator's rank 0. The log keeps each communicator's
 * members as world ranks.
 */
#include <string.h>

#include "diag.h"
#include "semantics.h"

#define COMM_BITS 14u

static ms_hmap comms;

void ms_comm_ids_init(void)
{
    if (!comms.slots)
        ms_hmap_init(&comms, COMM_BITS);
}

int64_t ms_comm_lookup(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL)
        return -1;
    uint64_t key = 0;
    memcpy(&key, &comm, sizeof comm < sizeof key ? sizeof comm : sizeof key);
    ms_hmap_slot *s = ms_hmap_get(&comms, key);
    if (s)
        return (int64_t)s->value[0];
    ms_warn_once(MS_WARN_COMM, "a communicator created by a call mpiscope does not record is reported as comm=-1");
    return -1;
}
