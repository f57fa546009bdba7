/*
 * phase_names.c: names and directory reads shared by the small-file and
 * the directory phases.  See phase_names.h.
 */
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "phase_names.h"

bool is_dot_entry(const char *name)
{
	return name[0] == '.' && (name[1] == '\0' ||
	    (name[1] == '.' && name[2] == '\0'));
}

bool is_silly_rename(const char *name)
{
	return strncmp(name, ".nfs", 4) == 0 ||
	    strncmp(name, ".fuse_hidden", 12) == 0;
}

DIR *open_dir(int parent, const char *name)
{
	DIR *dir;
	int fd;

	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if ((dir = fdopendir(fd)) == NULL)
		close(fd);
	return dir;
}

void pause_ms(unsigned ms)
{
	struct timespec pause = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&pause, NULL);
}
