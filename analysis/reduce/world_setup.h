/*
 * mpiscope-merge --with-spawned (docs/DESIGN.md section 6, "Spawned
 * worlds"): the table of worlds (read/worlds.h) of a log directory, from
 * the headers of its logs and those of its spawn-K subdirectories, before
 * the logs are read as one run.
 */
#ifndef MPISCOPE_WORLD_SETUP_H
#define MPISCOPE_WORLD_SETUP_H

/* Set the table of dir's worlds: dir itself (world 0, when it holds logs),
 * then each spawn-K that holds logs, by K. A world's size is its lowest
 * rank's log header's; a spawned world's parents are the world whose run
 * its rank 0's header names (spawned_by=), its parent intercommunicator
 * the communicator its rank 0's log says was made by no call from no
 * parent. Returns 0, or -1 when out of memory. */
int ms_worlds_read(const char *dir);

#endif
