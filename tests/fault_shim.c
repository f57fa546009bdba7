/*
 * fault_shim.c: an LD_PRELOAD library for the tests only, never part of
 * clyde.  It makes chosen calls fail the way a failing disk or a network
 * mount does, so that the error paths run on demand:
 *
 *   CLYDE_FAULT_CALL   write | read | openat | fsync | unlinkat
 *   CLYDE_FAULT_NTH    the first call to fail, counted from 1 (default 1)
 *   CLYDE_FAULT_COUNT  how many calls fail from there (default 1; 0: all,
 *                      as on a mount that went away)
 *   CLYDE_FAULT_ERR    EIO, ESTALE, ENOSPC, EDQUOT, ENOTCONN, EROFS, EINTR,
 *                      ETIMEDOUT, EAGAIN, EACCES,
 *                      or "short": the call moves half the bytes and says
 *                      so (write and read only)
 *   CLYDE_FAULT_LOG    optional file: every unlinkat() of a data file
 *                      (Bonnie.*) appends "<name> <size>" to it, so a test
 *                      can check that retried writes left the right size
 *
 * Only calls on clyde's own files count: write and read on descriptors
 * above 2 (not stdin, stdout, stderr), openat relative to a directory
 * descriptor.  stdio's internal writes (1.03's putc) do not pass through
 * here.  The count is per process: a seeker child starts from its
 * parent's count at fork().
 */
#define _GNU_SOURCE
/* openat and openat64 are both defined here: no redirection of one to the other */
#undef _FILE_OFFSET_BITS
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

enum call { C_NONE, C_WRITE, C_READ, C_OPENAT, C_FSYNC, C_UNLINKAT };

static struct {
	enum call call;
	unsigned long nth, count;
	int err;                /* 0: short transfer */
	const char *log;
	atomic_ulong seen;
	int ready;
} cfg;

static const struct {
	const char *name;
	int err;
} errs[] = {
	{ "EIO", EIO }, { "ESTALE", ESTALE }, { "ENOSPC", ENOSPC },
	{ "EDQUOT", EDQUOT }, { "ENOTCONN", ENOTCONN }, { "EROFS", EROFS },
	{ "EINTR", EINTR }, { "ETIMEDOUT", ETIMEDOUT }, { "EAGAIN", EAGAIN },
	{ "EACCES", EACCES }, { "short", 0 },
};

/* the next definition of name (libc's), stored into the pointer at fp */
static void real(const char *name, void *fp, size_t size)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (f == NULL) {
		fprintf(stderr, "fault_shim: no %s\n", name);
		abort();
	}
	/* POSIX: a dlsym() result converts to a function pointer */
	memcpy(fp, &f, size);
}

static void setup(void)
{
	const char *call = getenv("CLYDE_FAULT_CALL");
	const char *v;
	size_t i;

	if (cfg.ready)
		return;
	cfg.ready = 1;
	if (call == NULL)
		return;
	if (strcmp(call, "write") == 0)
		cfg.call = C_WRITE;
	else if (strcmp(call, "read") == 0)
		cfg.call = C_READ;
	else if (strcmp(call, "openat") == 0)
		cfg.call = C_OPENAT;
	else if (strcmp(call, "fsync") == 0)
		cfg.call = C_FSYNC;
	else if (strcmp(call, "unlinkat") == 0)
		cfg.call = C_UNLINKAT;
	v = getenv("CLYDE_FAULT_NTH");
	cfg.nth = v ? strtoul(v, NULL, 10) : 1;
	v = getenv("CLYDE_FAULT_COUNT");
	cfg.count = v ? strtoul(v, NULL, 10) : 1;
	v = getenv("CLYDE_FAULT_ERR");
	cfg.err = EIO;
	for (i = 0; v != NULL && i < sizeof(errs) / sizeof(errs[0]); i++)
		if (strcmp(v, errs[i].name) == 0)
			cfg.err = errs[i].err;
	cfg.log = getenv("CLYDE_FAULT_LOG");
}

/* true when this call of kind c is one to fail */
static int hit(enum call c)
{
	unsigned long n;

	setup();
	if (cfg.call != c)
		return 0;
	n = atomic_fetch_add(&cfg.seen, 1) + 1;
	return n >= cfg.nth && (cfg.count == 0 || n < cfg.nth + cfg.count);
}

/*
 * For write and read: -1 when the call is to fail (errno set), else 0,
 * with *n halved when the call is to be short.
 */
static int inject(int fd, enum call c, size_t *n)
{
	if (fd <= 2 || !hit(c))
		return 0;
	if (cfg.err != 0) {
		errno = cfg.err;
		return -1;
	}
	if (*n > 1)
		*n /= 2;
	return 0;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*next)(int, const void *, size_t);

	if (next == NULL)
		real("write", &next, sizeof(next));
	return inject(fd, C_WRITE, &n) < 0 ? -1 : next(fd, buf, n);
}

ssize_t read(int fd, void *buf, size_t n)
{
	static ssize_t (*next)(int, void *, size_t);

	if (next == NULL)
		real("read", &next, sizeof(next));
	return inject(fd, C_READ, &n) < 0 ? -1 : next(fd, buf, n);
}

static int do_openat(const char *sym, int dfd, const char *path, int flags,
    mode_t mode)
{
	int (*next)(int, const char *, int, ...);

	real(sym, &next, sizeof(next));

	if (dfd != AT_FDCWD && hit(C_OPENAT)) {
		errno = cfg.err != 0 ? cfg.err : EIO;
		return -1;
	}
	return next(dfd, path, flags, mode);
}

/* openat() and openat64(): the same, with the mode only after O_CREAT */
#define DEFINE_OPENAT(sym)						\
int sym(int dfd, const char *path, int flags, ...)			\
{									\
	mode_t mode = 0;						\
	va_list ap;							\
									\
	if (flags & O_CREAT) {						\
		va_start(ap, flags);					\
		mode = (mode_t)va_arg(ap, int);				\
		va_end(ap);						\
	}								\
	return do_openat(#sym, dfd, path, flags, mode);			\
}
DEFINE_OPENAT(openat)
DEFINE_OPENAT(openat64)

int fsync(int fd)
{
	static int (*next)(int);

	if (next == NULL)
		real("fsync", &next, sizeof(next));
	if (hit(C_FSYNC)) {
		errno = cfg.err != 0 ? cfg.err : EIO;
		return -1;
	}
	return next(fd);
}

int unlinkat(int dfd, const char *path, int flags)
{
	static int (*next)(int, const char *, int);
	struct stat st;

	if (next == NULL)
		real("unlinkat", &next, sizeof(next));
	setup();
	if (cfg.log != NULL && strncmp(path, "Bonnie.", 7) == 0 &&
	    fstatat(dfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode)) {
		FILE *f = fopen(cfg.log, "a");

		if (f != NULL) {
			fprintf(f, "%s %lld\n", path, (long long)st.st_size);
			fclose(f);
		}
	}
	if (hit(C_UNLINKAT)) {
		errno = cfg.err != 0 ? cfg.err : EIO;
		return -1;
	}
	return next(dfd, path, flags);
}
