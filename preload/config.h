/*
 * Run-time configuration from the environment (DESIGN §3). One table in
 * config.c lists the core's variables with their type, default and bounds;
 * each collector adds its own rows (ms_settings, collector.h), read,
 * checked and described with them; ms_cfg holds the core's values.
 * ms_config_load() is silent (a process that never calls MPI_Init must print
 * nothing); ms_config_report() prints each problem once (a value that is not
 * valid, an MPISCOPE_ variable that mpiscope does not know, a setting this
 * build cannot honour), unless this process is quiet about the
 * configuration (diag.h), then the effective configuration when
 * MPISCOPE_VERBOSE=1 (rank 0). Booleans take 0/1, no/yes, false/true and
 * off/on, in any case.
 */
#ifndef MPISCOPE_CONFIG_H
#define MPISCOPE_CONFIG_H

#include <stddef.h>
#include <stdint.h>

enum { MS_WRITER_CPU_OFF = 0, MS_WRITER_CPU_AUTO = 1 };

typedef struct ms_config {
    char dir[2048];          /* MPISCOPE_DIR; "" = agree on a default */
    int mode;                /* enum ms_mode */
    unsigned buffer_kb;      /* per-thread event buffer */
    unsigned flush_ms;       /* longest time events stay only in memory */
    unsigned callsite_depth; /* frames kept per call; 0 = off */
    int disable;             /* load, record nothing, write nothing */
    int verbose;             /* print the configuration at start */
    int writer_cpu;          /* MS_WRITER_CPU_*: where the writer thread runs */
    unsigned writer_wait_s;  /* longest wait for the writer thread at the end */
    unsigned hang_s;         /* the hang watchdog's time, s (0: off; ending.h) */
} ms_config;

extern ms_config ms_cfg;

void ms_config_load(void);
void ms_config_report(int print_effective);

/* A fingerprint of this process's MPISCOPE_ variables, names and values,
 * taken by ms_config_load(): two processes with the same variables have
 * the same fingerprint, and so the same warnings about them. */
uint64_t ms_config_fingerprint(void);

/* This process's rank as its launcher set it in the environment before
 * MPI_Init (PMI_RANK, OMPI_COMM_WORLD_RANK, PMIX_RANK, SLURM_PROCID), or -1. */
int ms_config_launcher_rank(void);

/* Writes "NAME=value" of every variable, one per line, into buf. */
size_t ms_config_describe(char *buf, size_t cap);

#endif
