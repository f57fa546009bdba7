/*
 * lib/sys.c: what this system is: the flag that opens a directory only to name what
 * is in it, the physical memory.
 */
/* O_PATH is Linux's: glibc shows it with _GNU_SOURCE */
#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>

#include "lib/sys.h"

int dir_search_only(void)
{
#if defined(O_PATH)
	return O_PATH;
#elif defined(O_SEARCH)
	return O_SEARCH;
#else
	return O_RDONLY;
#endif
}

uint64_t phys_ram_mib(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long page_size = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || page_size <= 0)
		return 0;
	return (uint64_t)pages / 1024 * (uint64_t)page_size / 1024;
}
