/* Region names: ms_region_format -> ms_region_parse round trips. */
#include <criterion/criterion.h>
#include <string.h>

#include "../../common/region_name.h"
#include "../../common/region_parse.h"

static void round_trip(const ms_region_fields *f)
{
    char name[512];
    size_t n = ms_region_format(name, sizeof name, f);
    cr_assert_lt(n, sizeof name);
    ms_region_info info;
    cr_assert_eq(ms_region_parse(name, &info), 1, "%s", name);
    cr_expect_eq(info.is_mpi, 1);
    cr_expect_str_eq(info.op, f->op);
    cr_expect_str_eq(info.kind, f->kind);
    cr_expect_eq(info.bytes, f->bytes, "%s", name);
    cr_expect_eq(info.peer, f->peer, "%s", name);
    cr_expect_eq(info.root, f->root, "%s", name);
    cr_expect_eq(info.tag, f->tag, "%s", name);
    cr_expect_eq(info.comm, f->comm, "%s", name);
    cr_expect_str_eq(info.request, f->request ? f->request : "", "%s", name);
    cr_expect_eq(info.file, f->has_file ? f->file : -1, "%s", name);
}

Test(names, file)
{
    ms_region_fields f = {"file_write_at", "io", 64, -1, -1, -1, 0, NULL, 1, 3};
    round_trip(&f);
    char name[256];
    ms_region_format(name, sizeof name, &f);
    cr_expect_str_eq(name, "mpi:file_write_at kind=io bytes=64 peer=-1 root=-1 tag=-1 comm=0 file=3");
    ms_region_fields g = {"file_delete", "io", -1, -1, -1, -1, -1, NULL, 1, INT32_MAX};
    round_trip(&g);
    /* Cut short: the length is still the whole name's, as snprintf's. */
    char small[16];
    cr_expect_eq(ms_region_format(small, sizeof small, &f), strlen(name));
    cr_expect_eq(strlen(small), sizeof small - 1);
    ms_region_info info;
    cr_expect_eq(ms_region_parse("mpi:file_read kind=io bytes=8 peer=-1 root=-1 tag=-1 comm=0 file=-2", &info), 0);
    cr_expect_eq(ms_region_parse("mpi:file_read kind=io bytes=8 peer=-1 root=-1 tag=-1 comm=0 file=x", &info), 0);
}

Test(names, point_to_point)
{
    ms_region_fields f = {"send", "point-to-point", 8, 1, -1, 0, 0, NULL, 0, 0};
    round_trip(&f);
    char name[256];
    ms_region_format(name, sizeof name, &f);
    cr_expect_str_eq(name, "mpi:send kind=point-to-point bytes=8 peer=1 root=-1 tag=0 comm=0");
}

Test(names, negative_values)
{
    ms_region_fields f = {"barrier", "collective", -1, -1, -1, -1, 1, NULL, 0, 0};
    round_trip(&f);
    ms_region_fields g = {"recv", "point-to-point", 0, INT32_MAX, INT32_MIN, INT32_MIN, 0, NULL, 0, 0};
    round_trip(&g);
    ms_region_fields h = {"file_write", "io", INT64_MAX, -1, -1, -1, 0, NULL, 0, 0};
    round_trip(&h);
}

Test(names, large_comm_ids)
{
    ms_region_fields f = {"allreduce", "collective", 4096, -1, -1, -1, INT64_MAX, NULL, 0, 0};
    round_trip(&f);
    ms_region_fields g = {"bcast", "collective", 1 << 20, -1, 3, -1, 0x7000000000000001ll, NULL, 0, 0};
    round_trip(&g);
    ms_region_fields h = {"init", "other", -1, -1, -1, -1, -1, NULL, 0, 0};
    round_trip(&h);
}

Test(names, request)
{
    ms_region_fields f = {"waitall", "wait", 1024, -1, -1, -1, 0, "isend", 0, 0};
    round_trip(&f);
    ms_region_fields g = {"wait", "wait", -1, 3, -1, 99, 5, "mixed", 0, 0};
    round_trip(&g);
    char name[256];
    ms_region_format(name, sizeof name, &g);
    cr_expect_str_eq(name, "mpi:wait kind=wait bytes=-1 peer=3 root=-1 tag=99 comm=5 request=mixed");
}

Test(names, non_mpi_names_have_empty_fields)
{
    static const char *const names[] = {
        "likwid:compute", "nvtx:step 3", "cuda:kernel axpy", "cuda:memcpy HtoD bytes=4096", "user region",
        "", "MPI:send kind=point-to-point bytes=8 peer=1 root=-1 tag=0 comm=0", "mp:send",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        ms_region_info info;
        memset(&info, 0x5a, sizeof info);
        cr_expect_eq(ms_region_parse(names[i], &info), 0, "%s", names[i]);
        cr_expect_eq(info.is_mpi, 0);
        cr_expect_str_eq(info.op, "");
        cr_expect_str_eq(info.kind, "");
        cr_expect_str_eq(info.request, "");
        cr_expect_eq(info.bytes, 0);
        cr_expect_eq(info.comm, 0);
        cr_expect_eq(ms_region_is_mpi(names[i], strlen(names[i])), 0);
    }
}

Test(names, malformed_mpi_names_are_not_parsed)
{
    static const char *const names[] = {
        "mpi:init",                                                          /* no fields */
        "mpi:send kind=point-to-point bytes=8 peer=1 root=-1 tag=0",         /* no comm */
        "mpi:send kind=point-to-point bytes=x peer=1 root=-1 tag=0 comm=0",  /* not a number */
        "mpi:send kind=point-to-point bytes=8 peer=1 root=-1 tag=0 comm=9223372036854775808",  /* range */
        "mpi:send kind=point-to-point bytes=8 peer=4294967296 root=-1 tag=0 comm=0",  /* range */
        "mpi:send kind=point-to-point bytes=8 peer=1 root=-1 tag=0 comm=0 stray",      /* no '=' */
        "mpi:send kind=point-to-point bytes= peer=1 root=-1 tag=0 comm=0",
        "mpi:send kind=point-to-point bytes=99999999999999999999 peer=1 root=-1 tag=0 comm=0",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        ms_region_info info;
        cr_expect_eq(ms_region_parse(names[i], &info), 0, "%s", names[i]);
        cr_expect_eq(info.is_mpi, 0);
        cr_expect_str_eq(info.op, "");
        /* Still an MPI call's region for MPI time. */
        cr_expect_eq(ms_region_is_mpi(names[i], strlen(names[i])), 1);
    }
}

Test(names, field_order_and_extra_fields_as_scope_profiler)
{
    ms_region_info info;
    cr_assert_eq(ms_region_parse("mpi:isend comm=3 tag=7 root=-1 peer=2 bytes=16 kind=point-to-point "
                                 "extra=1",
                                 &info),
                 1);
    cr_expect_str_eq(info.op, "isend");
    cr_expect_eq(info.comm, 3);
    cr_expect_eq(info.tag, 7);
    cr_expect_eq(info.peer, 2);
    cr_expect_eq(info.bytes, 16);
    cr_expect_str_eq(info.request, "");
}
