/*
 * lib/units.h: numbers as options give them and as tables print them: strict parsing
 * with k/m/g suffixes and durations, chunk and file sizes (lib/units.c).  They depend on nothing of clyde's.
 */
#ifndef CLYDE_LIB_UNITS_H
#define CLYDE_LIB_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Strict number parsing: the whole string is a decimal number with an
 * optional suffix from 'suffixes' ("kmgt" for k = 1024 of the base unit,
 * and so on).  Returns NULL, or a short reason ("not a number",
 * "out of range").
 */
const char *parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
const char *parse_size(const char *s, const char *suffixes, uint64_t unit_bytes,
    uint64_t min, uint64_t max, uint64_t *out);
/* A whole number of ns, us, ms or s (s when none), into ns; as above. */
const char *parse_duration(const char *s, uint64_t min_ns, uint64_t max_ns,
    uint64_t *out);

/* A chunk size as -s and --chunks take it: "512", "64k", "16m". */
void fmt_chunk(char *out, size_t n, unsigned bytes);
/* A file size as bonnie++ prints it: "64M", "4G". */
void fmt_file_size(char *out, size_t n, uint64_t mib);

/*
 * A rate in KiB/s with a unit, as bonnie++ 2.00's table prints it:
 * "540k", "50.6m", "728m", "1.1g" (clyde(1), OUTPUT, The 2.00 text table)
 */
void fmt_kib_rate(char *out, size_t n, double kib);

#endif
