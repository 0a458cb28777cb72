/*
 * Windows and matched messages: which communicator they belong to, so that
 * one-sided calls and MPI_Mrecv/MPI_Imrecv report `comm=`.
 */
#include <string.h>

#include "../preload/diag.h"
#include "handle_map.h"
#include "objects.h"

static ms_hmap windows;
static ms_hmap messages;

static inline uint64_t key_of(const void *handle, size_t size)
{
    uint64_t k = 0;
    memcpy(&k, handle, size < sizeof k ? size : sizeof k);
    return k;
}

void ms_objects_init(void)
{
    if (!windows.slots)
        ms_hmap_init(&windows, 10);
    if (!messages.slots)
        ms_hmap_init(&messages, 12);
}

static void remember(ms_hmap *m, uint64_t key, int64_t comm_id)
{
    ms_hmap_slot *s = ms_hmap_put(m, key);
    if (s)
        s->value[0] = (uint64_t)comm_id;
}

static int64_t recall(ms_hmap *m, uint64_t key, int forget)
{
    ms_hmap_slot *s = ms_hmap_get(m, key);
    if (!s)
        return -1;
    int64_t id = (int64_t)s->value[0];
    if (forget)
        ms_hmap_erase(m, s);
    return id;
}

void ms_win_new(MPI_Win win, int64_t comm_id)
{
    if (win != MPI_WIN_NULL)
        remember(&windows, key_of(&win, sizeof win), comm_id);
}

int64_t ms_win_comm(MPI_Win win)
{
    return recall(&windows, key_of(&win, sizeof win), 0);
}

void ms_win_forget(MPI_Win win)
{
    recall(&windows, key_of(&win, sizeof win), 1);
}

void ms_msg_new(MPI_Message msg, int64_t comm_id)
{
    if (msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC)
        remember(&messages, key_of(&msg, sizeof msg), comm_id);
}

int64_t ms_msg_take(MPI_Message msg)
{
    if (msg == MPI_MESSAGE_NULL || msg == MPI_MESSAGE_NO_PROC)
        return -1;
    return recall(&messages, key_of(&msg, sizeof msg), 1);
}
