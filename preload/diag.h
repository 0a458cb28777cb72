/*
 * Diagnostics on stderr, prefixed "mpiscope:", at most once per cause. A
 * warning about the run's configuration (its MPISCOPE_ variables) is
 * printed once per run rather than once per rank: by the process that
 * speaks for the configuration (DESIGN section 3).
 */
#ifndef MPISCOPE_DIAG_H
#define MPISCOPE_DIAG_H

enum ms_cause {
    MS_WARN_CONFIG_FIRST = 0,      /* one cause per configuration variable */
    MS_WARN_CONFIG_LAST = 31,
    MS_WARN_UNKNOWN_FIRST,         /* one cause per unknown MPISCOPE_ variable */
    MS_WARN_UNKNOWN_LAST = MS_WARN_UNKNOWN_FIRST + 7,
    MS_WARN_UNBUILT_FIRST,         /* one per collector's settings: asks for a collector not built in */
    MS_WARN_UNBUILT_LAST = MS_WARN_UNBUILT_FIRST + 7,
    MS_WARN_OWN_FIRST,             /* the collectors' own causes (ms_warn_cause) */
    MS_WARN_OWN_LAST = MS_WARN_OWN_FIRST + 15,
    MS_WARN_DIR,
    MS_WARN_OPEN,
    MS_WARN_WRITE,
    MS_WARN_FULL,
    MS_WARN_THREADS,
    MS_WARN_MEMORY,
    MS_WARN_WRITER,
    MS_WARN_COMM,
    MS_WARN_UNSUPPORTED,
    MS_WARN_WRONG_MPI,
    MS_WARN_COLLECTOR,
    MS_WARN_FILES,
    MS_WARN_SESSION,
    MS_WARN_COUNT
};

/* Print once per cause per process (a rank). Thread-safe. */
void ms_warn_once(enum ms_cause cause, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* As ms_warn_once, for a warning about the run's configuration: nothing
 * while this process is quiet about it (ms_diag_config_quiet). */
void ms_warn_config(enum ms_cause cause, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* 1: this process leaves the configuration's warnings to another, which
 * sees the same MPISCOPE_ variables (rank 0, pmpi/lifecycle.c); 0 (the
 * default): it speaks for itself. */
void ms_diag_config_quiet(int quiet);

/* A cause of its own for a collector's warnings (of MS_WARN_OWN_*), one
 * per call, for `owner`; taken at load. When all are taken, one warning
 * says so and the causes given from then on are MS_WARN_COLLECTOR, shared.
 * Thread-safe. */
enum ms_cause ms_warn_cause(const char *owner);

/* Print unconditionally (used for MPISCOPE_VERBOSE). */
void ms_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
