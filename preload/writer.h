/*
 * The log writer (writer.c): the writer thread, who owns the log when,
 * the staging of a thread's records, and the stop sequence. The mode (trace
 * or summary) is a sink (sink.h); runtime.c opens the log, writes its
 * header and chooses the sink, then starts the writer. The services below
 * are for runtime.c and the sinks.
 */
#ifndef MPISCOPE_WRITER_H
#define MPISCOPE_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "log_file.h"
#include <sched.h>

#include "sink.h"
#include "tstate.h"

/* The rank's log (opened by runtime.c). */
MS_HIDDEN ms_log *ms_writer_log(void);

/* Before start: the staging buffer (capacity bytes, the ring's size) and
 * the registry (registry.h). 0, or -1 when out of memory. */
MS_HIDDEN int ms_writer_setup(uint64_t capacity);

/* Turn recording on and start the writer thread, which writes through
 * sink. 0, or -1 (recording off again) when the thread cannot start. */
MS_HIDDEN int ms_writer_start(const ms_sink *sink);

/* Before ms_writer_start: the CPUs the writer thread may be pinned to
 * (pmpi/writer_cpu.h), tried from the first-th of them on, round: the
 * first that the system accepts is its CPU. */
MS_HIDDEN void ms_writer_place(const cpu_set_t *cpus, int first);

/* Stop the writer thread, write the rest of every buffer and the end
 * record, close the log, turn recording off. finalize_start_ns: 0 when
 * MPI_Finalize was not called; t0: when the caller began to stop (the
 * tool's last wait, sink.h's last_wait, runs from there). The writer
 * thread is waited for at most MPISCOPE_WRITER_WAIT_S seconds (a write
 * stalled on a hung file system): after that the rank gives up, says so
 * once and what is lost, and returns -1 with recording off; the writer's
 * buffers must then not be released (it may still use them). 0 otherwise. */
MS_HIDDEN int ms_writer_stop(uint64_t finalize_start_ns, uint64_t t0);

/* Free the log's buffers, the staging buffer and what the sink holds; the
 * log is closed first if still open. */
MS_HIDDEN void ms_writer_release(void);

/* From a signal handler (async-signal-safe): write what every thread has
 * buffered, then the ending block `ending` (NULL: none), then, when
 * close_log, the end record, and close the log.
 * Nothing is written afterwards. Waits a bounded time for a block another
 * thread is writing; does nothing in a forked child or in a handler that
 * interrupted the log's own writing. 1 when it wrote, else 0. */
MS_HIDDEN int ms_runtime_flush_from_signal(int close_log, const ms_ending_record *ending);

/* ---- for the sinks and runtime.c ---- */

/* Take the log for writing. wait_ms < 0: wait as long as another thread
 * holds it. Returns 0 when taken and still open; -1 when it is closed, held
 * by the calling thread itself (a signal that interrupted its writing), or
 * still held after wait_ms. Async-signal-safe. */
MS_HIDDEN int ms_writer_log_take(int wait_ms);
MS_HIDDEN void ms_writer_log_give(void);

/* After a failed write: warn once, by cause (no room, or another error).
 * quiet: in a signal handler, print nothing. */
MS_HIDDEN void ms_writer_warn_write(int quiet);

/* The staging buffer (the ring's size): a copy of one thread's records,
 * or scratch space for whole blocks. */
MS_HIDDEN uint8_t *ms_writer_staging(void);

/* Copy what thread t has published and not yet handed over into staging:
 * its length (0: nothing), and in *head the position to hand over to (the
 * caller stores it in t->tail once the records are used).
 * Async-signal-safe. */
MS_HIDDEN size_t ms_writer_stage(ms_thread *t, uint64_t *head);

/* Write every thread's published records through the sink's drain, after
 * a sample of the clocks. each_block: take the log for each block (the
 * writer thread); else the caller holds it. quiet: in a signal handler.
 * Returns -1 when the log was closed meanwhile. */
MS_HIDDEN int ms_writer_drain_all(int each_block, int quiet);

#endif
