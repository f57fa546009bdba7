/*
 * lib/fdio.h: whole-buffer reads and writes that retry EINTR and short transfers,
 * small files read whole, streams closed with their errors (lib/fdio.c).  They depend on nothing of clyde's.
 */
#ifndef CLYDE_LIB_FDIO_H
#define CLYDE_LIB_FDIO_H

#include <stdio.h>
#include <sys/types.h>

/*
 * write()/read() the whole buffer, retrying EINTR and short transfers
 * without counting any byte twice.  Return the bytes moved, or -1 with
 * errno set; a read shorter than n means end of file.
 */
ssize_t write_all(int fd, const void *buf, size_t n);

/*
 * Clear O_NONBLOCK on fd: a file of the run's is opened again with it, so
 * that a FIFO put under its name cannot hold the open(), and read as
 * usual once fstat() shows it is the file made.  0, or -1 with errno.
 */
int fd_blocking(int fd);

ssize_t read_all(int fd, void *buf, size_t n);

/*
 * The start of a small file (/proc, /sys) as a string: at most n - 1
 * bytes and a NUL in buf.  Returns the bytes read; 0 or -1 when there
 * are none (buf is then "").
 */
ssize_t read_small_file(const char *path, char *buf, size_t n);

/*
 * Flush and close a stream that results were written to.  Returns 0, or
 * -1 when anything written was lost (a full disk under a redirect, a
 * closed pipe); errno then still holds the cause of the failed write.
 */
int close_checked(FILE *f);

#endif
