/*
 * lib/fdio.c: whole-buffer reads and writes that retry EINTR and short transfers,
 * small files read whole, streams closed with their errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "lib/fdio.h"

ssize_t write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(fd, p + done, n - done);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		done += (size_t)w;
	}
	return (ssize_t)done;
}

int fd_blocking(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
}

ssize_t read_all(int fd, void *buf, size_t n)
{
	char *p = buf;
	size_t done = 0;

	while (done < n) {
		ssize_t r = read(fd, p + done, n - done);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

ssize_t read_small_file(const char *path, char *buf, size_t n)
{
	ssize_t got = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		got = read_all(fd, buf, n - 1);
		close(fd);
	}
	buf[got > 0 ? got : 0] = '\0';
	return got;
}

int close_checked(FILE *f)
{
	int failed = fflush(f) != 0 || ferror(f);

	if (fclose(f) != 0)
		failed = 1;
	return failed ? -1 : 0;
}
