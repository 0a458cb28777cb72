/*
 * The known name closest to a misspelt one, for the warning about an
 * unknown MPISCOPE_ variable (config.c): the fewest single-character
 * edits (insert, delete, replace, or swap two neighbours) from one to the
 * other.
 */
#ifndef MPISCOPE_CLOSEST_NAME_H
#define MPISCOPE_CLOSEST_NAME_H

#include <stddef.h>

/* Edits from a to b (each compared on its first 63 characters). */
__attribute__((visibility("hidden"))) unsigned ms_edit_distance(const char *a, const char *b);

/* The index in known[0..n-1] (n > 0) of the name fewest edits from name;
 * the first of them on a tie. */
__attribute__((visibility("hidden"))) size_t ms_closest_name(const char *name, const char *const *known, size_t n);

#endif
