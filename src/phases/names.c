/*
 * phases/names.c: names and directory reads shared by the small-file and
 * the directory phases.  See phases/names.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "phases/names.h"
#include "lib/fdio.h"
#include "lib/sys.h"

bool is_dot_entry(const char *name)
{
	return name[0] == '.' && (name[1] == '\0' ||
	    (name[1] == '.' && name[2] == '\0'));
}

/*
 * A small file's name (phases/files.c): ten lowercase hex digits, the
 * counter, with up to 12 of the name characters after or before it.
 */
bool is_small_file_name(const char *name)
{
	static const char alnum[] = "0123456789abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	static const char hex[] = "0123456789abcdef";
	size_t len = strlen(name);

	if (len < 10 || len > 22 || strspn(name, alnum) != len)
		return false;
	return strspn(name, hex) >= 10 || strspn(name + len - 10, hex) == 10;
}

/* A subdirectory of files/: 00000, 00001, ... (phases/files.c) */
bool is_files_subdir_name(const char *name)
{
	size_t len = strlen(name);

	return len >= 5 && len <= 10 && strspn(name, "0123456789") == len &&
	    (len == 5 || name[0] != '0');
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

int hold_dir(int parent, const char *name, bool readable)
{
	return openat(parent, name, (readable ? O_RDONLY : dir_search_only()) |
	    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

const char *dir_swapped(int parent, const char *name, int held, int *err)
{
	struct stat now, made;

	*err = 0;
	if (fstatat(parent, name, &now, AT_SYMLINK_NOFOLLOW) != 0 ||
	    fstat(held, &made) != 0) {
		*err = errno;
		return "";
	}
	if (S_ISLNK(now.st_mode))
		return LINK_WHY;
	if (now.st_dev != made.st_dev || now.st_ino != made.st_ino)
		return OTHER_DIR_WHY;
	return NULL;
}

const char *link_why(int parent, const char *name, int err)
{
	struct stat st;

	if (err != ENOTDIR && err != ELOOP)
		return NULL;
	if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !S_ISLNK(st.st_mode))
		return NULL;
	return LINK_WHY;
}

void pause_ms(unsigned ms)
{
	struct timespec pause = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&pause, NULL);
}
