/*
 * The reader's view of one rank's log, one line per record, for
 * test/mpi/messages.sh:
 *
 *   H <rank> <size> <version> <mode>
 *   M <thread> <op name> <flags> <comm> <peer> <tag> <bytes> <post_ns>
 *   E <thread> <start_ns> <end_ns> <region name>
 *   X <status> <message>                      (last)
 *
 * Message records come before the event they belong to, as the reader
 * delivers them. Op names are those of pmpi/calls.tbl ("?" when not known).
 *
 *   msg_dump LOG
 */
#include <inttypes.h>
#include <stdio.h>

#include "../../../analysis/read/log_reader.h"
#include "../../../common/op_names.h"

static int on_header(void *ctx, const ms_log_meta *m)
{
    (void)ctx;
    printf("H %d %d %u %u\n", m->header.rank, m->header.size, m->header.version, m->header.mode);
    return 0;
}

static int on_message(void *ctx, const ms_read_message *m)
{
    (void)ctx;
    const char *op = ms_op_name(m->op);
    printf("M %" PRIu32 " %s %" PRIu32 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRIu64 "\n", m->thread,
           op ? op : "?", m->flags, m->comm, m->peer, m->tag, m->bytes, m->post_ns);
    return 0;
}

static int on_event(void *ctx, const ms_read_event *ev)
{
    const ms_reader *r = ctx;
    size_t len = 0;
    const char *name = ms_reader_region_name(r, ev->region, &len);
    printf("E %" PRIu32 " %" PRIu64 " %" PRIu64 " %.*s\n", ev->thread, ev->start_ns, ev->end_ns, (int)len,
           name ? name : "?");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: msg_dump LOG\n");
        return 2;
    }
    ms_reader *r = ms_reader_create();
    if (!r)
        return 2;
    ms_read_callbacks cb = {.header = on_header, .event = on_event, .message = on_message};
    ms_read_result res;
    ms_read_status st = ms_reader_read(r, argv[1], &cb, r, &res);
    printf("X %s %s\n", ms_read_status_str(st), res.message);
    ms_reader_destroy(r);
    return st == MS_READ_OK ? 0 : 1;
}
