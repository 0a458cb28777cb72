/* What args.h does out of line: the sizes of datatypes (see ms_type_size)
 * and the received half of a sendrecv as a message record. */
#include "args.h"

#include "messages.h"

__thread ms_tsize_entry ms_tsize_cache[MS_TSIZE_SLOTS] __attribute__((tls_model("initial-exec")));

int64_t ms_type_size_slow(MPI_Datatype datatype, uint64_t key)
{
    if (datatype == MPI_DATATYPE_NULL)
        return -1;
    int size;
    if (PMPI_Type_size(datatype, &size) != MPI_SUCCESS || size == MPI_UNDEFINED)
        return -1;
    int nints, naddrs, ntypes, combiner;
    if (key && PMPI_Type_get_envelope(datatype, &nints, &naddrs, &ntypes, &combiner) == MPI_SUCCESS &&
        combiner == MPI_COMBINER_NAMED) {
        ms_tsize_entry *e = &ms_tsize_cache[(key * 0x9e3779b97f4a7c15ull) >> 60];
        e->key = key;
        e->size = size;
    }
    return size;
}

/* What the status says arrived, posted by the call itself. */
void ms_msg_received(ms_thread *t, const ms_call *c, const MPI_Status *st, uint64_t t0)
{
    ms_call r = *c;
    ms_from_status(&r, st);
    ms_msg_stage_one(t, c->op, MS_MESSAGE_RECV | MS_MESSAGE_POSTED, c->comm, r.peer, r.tag, r.bytes, t0);
}
