/*
 * Test-only slow writer: MPISCOPE_TEST_WRITER_DELAY_MS=<ms> makes the
 * writer thread sleep that long before each block of events it writes, as
 * a slow or contended file system would, so that the application threads'
 * waits for room in their buffers (recorded as MS_STALL_REGION events) can
 * be tested. Only tests set it; it is not part of the configuration
 * (DESIGN section 3). Unset, ms_slow_writer_pause returns at once.
 */
#ifndef MPISCOPE_SLOW_WRITER_H
#define MPISCOPE_SLOW_WRITER_H

/* Read the variable (once, at start; 0 to 10000 ms, else warned about and
 * ignored). */
__attribute__((visibility("hidden"))) void ms_slow_writer_setup(void);
/* In the writer thread, before a block of events. */
__attribute__((visibility("hidden"))) void ms_slow_writer_pause(void);

#endif
