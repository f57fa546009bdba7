/*
 * lib/sys.h: what this system is: the flag that opens a directory only to name what
 * is in it, the physical memory (lib/sys.c).  They depend on nothing of clyde's.
 */
#ifndef CLYDE_LIB_SYS_H
#define CLYDE_LIB_SYS_H

#include <stdint.h>

/*
 * The open() flag of a directory opened only to name what is in it:
 * Linux's O_PATH, POSIX's O_SEARCH, else O_RDONLY.
 */
int dir_search_only(void);

/* The physical memory in MiB, from sysconf(3); 0 unknown. */
uint64_t phys_ram_mib(void);

#endif
