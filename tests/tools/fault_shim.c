/*
 * fault_shim.c: an LD_PRELOAD library for the tests only, never part of
 * clyde.  It makes chosen calls fail the way a failing disk or a network
 * mount does, so that the error paths run on demand:
 *
 *   CLYDE_FAULT_CALL   write | read | openat | fsync | unlinkat | unlink |
 *                      rmdir | mkdir | fstatat | readdir | readdir_skip |
 *                      readdir_skip_dirs | fork | link | statvfs
 *   CLYDE_FAULT_NTH    the first call to fail, counted from 1 (default 1)
 *   CLYDE_FAULT_COUNT  how many calls fail from there (default 1; 0: all,
 *                      as on a mount that went away)
 *   CLYDE_FAULT_FILE   optional fnmatch() glob: only calls on a file whose
 *                      name matches count: the last component of the
 *                      path a call names, or of the path a descriptor
 *                      was opened by (readdir: its directory's; for "."
 *                      the directory's own; link: the name the file
 *                      had), e.g. 'Bonnie.*' for the data files; empty:
 *                      any; fork and statvfs name no file, and with a
 *                      glob none of them counts
 *   CLYDE_FAULT_ERR    EIO, ESTALE, ENOSPC, EDQUOT, ENOTCONN, EROFS, EINTR,
 *                      ETIMEDOUT, EAGAIN, EACCES, ENOTEMPTY, EBUSY,
 *                      ENOENT (an unlink that says the file is gone and
 *                      leaves it, as GlusterFS's DHT for a file on a
 *                      brick that is down);
 *                      "short": the call moves half the bytes and says
 *                      so (write and read only);
 *                      "eof": the read() call returns 0, as at the end
 *                      of a file that another writer cut short;
 *                      "skip": the readdir() call passes over one entry
 *                      and returns the next (readdir only);
 *                      "block": the call waits until the file named by
 *                      CLYDE_FAULT_RELEASE exists, then does its work, as
 *                      on a server that hangs or a frozen filesystem: the
 *                      process neither wakes meanwhile (it is told of new
 *                      names in that file's directory by inotify; elsewhere
 *                      it looks every 50 ms) nor takes a signal but
 *                      SIGKILL and SIGSTOP (the others wait, blocked);
 *                      "delay": the call sleeps CLYDE_FAULT_DELAY_MS
 *                      (CLYDE_FAULT2_DELAY_MS for the second fault)
 *                      milliseconds, then does its work, as on a server
 *                      that stalls now and then
 *   CLYDE_FAULT2_CALL, CLYDE_FAULT2_NTH, CLYDE_FAULT2_COUNT,
 *   CLYDE_FAULT2_FILE, CLYDE_FAULT2_ERR
 *                      a second fault, counted on its own (readdir_skip
 *                      is the first's only)
 *   CLYDE_FAULT_HITS   optional file: each call that a fault chooses (to
 *                      fail, be short, skip, block or be delayed) appends
 *                      a line "CALL NAME N" to it: the kind of call as in
 *                      CLYDE_FAULT_CALL, the file's name as for
 *                      CLYDE_FAULT_FILE ("-" for fork) and N, the call's
 *                      number in that fault's count; so a test can show
 *                      and check what a fault hit.  A fault of "delay"
 *                      with CLYDE_FAULT_DELAY_MS=0 and CLYDE_FAULT_COUNT=0
 *                      lists every call of its kind that counts
 *   CLYDE_FAULT_RELEASE the file that ends a "block"
 *   CLYDE_FAULT_HELD   optional: made (as a directory) when a "block"
 *                      starts, so that a test can time the hold from
 *                      there and not from the start of the program
 *   CLYDE_FAULT_LOG    optional file: every unlinkat() of a data file
 *                      (Bonnie.*) appends "<name> <size>" to it, so a test
 *                      can check that retried writes left the right size
 *   CLYDE_FAULT_FREE_INODES  statvfs() says the filesystem has this many
 *                      free inodes, as a small one would (no other
 *                      variable needed; the call itself does not fail)
 *   CLYDE_FAULT_FREE_MIB  statvfs() says the filesystem has this many
 *                      MiB free, as a small one would (no other variable
 *                      needed; the call itself does not fail)
 *   CLYDE_FAULT_DIRECT_ALIGN  a write or read on a descriptor opened with
 *                      O_DIRECT fails with EINVAL unless its length is a
 *                      multiple of this many bytes, as on a filesystem
 *                      whose blocks are that large (no other variable
 *                      needed)
 *   CLYDE_FAULT_LINK_ONE_DIR  1: link() and linkat() fail with EXDEV
 *                      unless the old and new names are in the same
 *                      directory (the same dev/ino), as on AFS (no other
 *                      variable needed)
 *   CLYDE_FAULT_RMDIR_EEXIST  1: an unlinkat(AT_REMOVEDIR) of a directory
 *                      that is not empty fails with EEXIST, not
 *                      ENOTEMPTY, as on AFS (POSIX allows either; no
 *                      other variable needed)
 *
 * Only calls on clyde's own files count (those in the target, and the
 * --json file's temporary name), so that where a fault lands does not
 * depend on what else the process reads on the machine it runs on (the
 * device's settings under /sys, /proc, pipes):
 *   - openat, fstatat, mkdir (mkdirat), unlinkat and link (linkat() and
 *     renameat(): a file given a new name): those relative
 *     to a directory descriptor or by a relative path (the small-file
 *     phases work in their directory), not the ones by an absolute path
 *     (so not the link of --json's file through /proc/self/fd);
 *   - statvfs: statvfs() and fstatvfs(), which clyde calls on the target
 *     alone (its check of the free space and inodes), by its path or its
 *     descriptor;
 *   - write, read, fsync and readdir: those on a descriptor that such an
 *     openat() returned ("ours"), below 4096.  close(), fclose() and
 *     closedir() forget it, dup() and dup2() pass it on (or not) to the
 *     new descriptor, a child inherits it at fork(), and one whose
 *     file is no longer the one opened (closed inside the C library, its
 *     number taken again) is not ours any more.  Descriptors of open(),
 *     opendir() and fopen() (/proc, /sys, /dev/null, the -d directory
 *     itself), pipes, sockets, stdin, stdout and stderr never count.
 * stdio's internal reads and writes (1.03's putc and getc) do not pass
 * through here.  The count is per process: a child (a seeker, a copy of
 * -c) starts from its parent's count at fork().  fork counts every call;
 * one that fails makes no child.
 *
 * unlinkat counts both kinds of unlinkat(), unlink only those without
 * AT_REMOVEDIR, rmdir only those with it (so
 * CLYDE_FAULT_CALL=rmdir CLYDE_FAULT_ERR=ENOTEMPTY is a directory that
 * looks busy once, as with an NFS silly-rename still going away).
 * readdir_skip needs no other variable: after each successful unlinkat()
 * of a file relative to a directory descriptor, the next readdir() on
 * that directory passes over one entry, as the readdir of NFS servers
 * exporting tmpfs, NFS-Ganesha and FreeBSD's NFS client do when entries
 * are removed during the read.  readdir_skip_dirs: the same after each
 * successful unlinkat(AT_REMOVEDIR) (the directory phases of --dirs).
 * readdir and readdir64 are both wrapped.
 */
#define _GNU_SOURCE
/* openat and openat64 are both defined here: no redirection of one to the other */
#undef _FILE_OFFSET_BITS
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <poll.h>
#include <sys/inotify.h>
#endif
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

enum call {
	C_NONE, C_WRITE, C_READ, C_OPENAT, C_FSYNC, C_UNLINKAT, C_UNLINK, C_RMDIR,
	C_FSTATAT, C_READDIR, C_READDIR_SKIP, C_READDIR_SKIP_DIRS, C_FORK,
	C_MKDIR, C_LINK, C_STATVFS
};

/* not an errno: the call moves half the bytes, skips an entry, or waits */
#define E_SHORT  0
#define E_SKIP   (-1)
#define E_BLOCK  (-2)
#define E_EOF    (-3)
#define E_DELAY  (-4)

/* one fault: CLYDE_FAULT_* and a second one, CLYDE_FAULT2_* */
struct fault {
	enum call call;
	unsigned long nth, count;
	unsigned long delay_ms;         /* "delay" */
	int err;
	const char *file;               /* the glob of FILE, or NULL */
	atomic_ulong seen;
};

static struct {
	struct fault fault[2];
	const char *log;
	const char *release;
	const char *held;
	const char *hits;
	int ready;
} cfg;

static const struct {
	const char *name;
	int err;
} errs[] = {
	{ "EIO", EIO }, { "ESTALE", ESTALE }, { "ENOSPC", ENOSPC },
	{ "EDQUOT", EDQUOT }, { "ENOTCONN", ENOTCONN }, { "EROFS", EROFS },
	{ "EINTR", EINTR }, { "ETIMEDOUT", ETIMEDOUT }, { "EAGAIN", EAGAIN },
	{ "EACCES", EACCES }, { "ENOTEMPTY", ENOTEMPTY }, { "EBUSY", EBUSY },
	{ "ENOENT", ENOENT },
	{ "short", E_SHORT }, { "eof", E_EOF }, { "skip", E_SKIP }, { "block", E_BLOCK },
	{ "delay", E_DELAY },
};

static const struct {
	const char *name;
	enum call call;
} calls[] = {
	{ "write", C_WRITE }, { "read", C_READ }, { "openat", C_OPENAT },
	{ "fsync", C_FSYNC }, { "unlinkat", C_UNLINKAT }, { "unlink", C_UNLINK },
	{ "rmdir", C_RMDIR },
	{ "fstatat", C_FSTATAT }, { "readdir", C_READDIR },
	{ "readdir_skip", C_READDIR_SKIP }, { "fork", C_FORK },
	{ "readdir_skip_dirs", C_READDIR_SKIP_DIRS }, { "mkdir", C_MKDIR },
	{ "link", C_LINK }, { "statvfs", C_STATVFS },
};

/*
 * readdir_skip: entries to pass over at the next readdir() of the
 * directory open on descriptor fd; only descriptors below FDS.
 */
#define FDS 4096
static atomic_uint skip_next[FDS];
/* the same for the working directory (unlinkat(AT_FDCWD, name)) */
static atomic_uint skip_cwd;

/*
 * The descriptors that an openat() of clyde's own files returned: the
 * file (to tell it from another that took its number after a close this
 * library did not see) and the last name of the path it was opened by.
 */
static struct {
	atomic_int ours;
	dev_t dev;
	ino_t ino;
	char name[NAME_MAX + 1];
} fds[FDS];

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

/* the environment variable prefix + what, e.g. CLYDE_FAULT2_ + NTH */
static const char *env(const char *prefix, const char *what)
{
	char name[64];

	snprintf(name, sizeof(name), "%s%s", prefix, what);
	return getenv(name);
}

static void setup_fault(struct fault *f, const char *prefix)
{
	const char *call = env(prefix, "CALL");
	const char *v;
	size_t i;

	if (call == NULL)
		return;
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (strcmp(call, calls[i].name) == 0)
			f->call = calls[i].call;
	v = env(prefix, "NTH");
	f->nth = v ? strtoul(v, NULL, 10) : 1;
	v = env(prefix, "COUNT");
	f->count = v ? strtoul(v, NULL, 10) : 1;
	v = env(prefix, "DELAY_MS");
	f->delay_ms = v ? strtoul(v, NULL, 10) : 0;
	v = env(prefix, "FILE");
	f->file = v != NULL && *v != '\0' ? v : NULL;
	v = env(prefix, "ERR");
	f->err = EIO;
	for (i = 0; v != NULL && i < sizeof(errs) / sizeof(errs[0]); i++)
		if (strcmp(v, errs[i].name) == 0)
			f->err = errs[i].err;
}

static void setup(void)
{
	if (cfg.ready)
		return;
	cfg.ready = 1;
	setup_fault(&cfg.fault[0], "CLYDE_FAULT_");
	setup_fault(&cfg.fault[1], "CLYDE_FAULT2_");
	cfg.log = getenv("CLYDE_FAULT_LOG");
	cfg.release = getenv("CLYDE_FAULT_RELEASE");
	cfg.held = getenv("CLYDE_FAULT_HELD");
	cfg.hits = getenv("CLYDE_FAULT_HITS");
}

/*
 * Where it can, a descriptor that becomes readable when a name is made
 * in the directory of the release file (inotify): the wait for it wakes
 * the process then only, as a call hung in the kernel never wakes.
 */
static int watch_release_dir(void)
{
#ifdef __linux__
	char dir[PATH_MAX];
	char *slash;
	int fd;

	snprintf(dir, sizeof(dir), "%s", cfg.release);
	slash = strrchr(dir, '/');
	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else
		slash[slash == dir] = '\0';
	if ((fd = inotify_init1(IN_CLOEXEC)) < 0)
		return -1;
	if (inotify_add_watch(fd, dir, IN_CREATE | IN_MOVED_TO | IN_ATTRIB) < 0) {
		close(fd);
		return -1;
	}
	return fd;
#else
	return -1;
#endif
}

/* The next name made there: poll(), which the stall line names as no call. */
static void wait_release_dir(int fd)
{
#ifdef __linux__
	struct pollfd p = { fd, POLLIN, 0 };
	char events[4096];

	if (poll(&p, 1, -1) > 0)
		(void)read(fd, events, sizeof(events));
#else
	(void)fd;
#endif
}

/*
 * "block": wait for the release file with every signal blocked, so that
 * a stop signal waits as it does for a call that hangs in the kernel
 */
static void block(void)
{
	struct timespec step = { 0, 50 * 1000 * 1000 };
	sigset_t all, saved;
	int fd;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &saved);
	/* mkdir: a call this library does not count */
	if (cfg.held != NULL)
		(void)mkdir(cfg.held, 0755);
	fd = cfg.release != NULL ? watch_release_dir() : -1;
	while (cfg.release == NULL || access(cfg.release, F_OK) != 0) {
		if (fd >= 0)
			wait_release_dir(fd);
		else
			nanosleep(&step, NULL);
	}
	if (fd >= 0)
		close(fd);
	sigprocmask(SIG_SETMASK, &saved, NULL);
}

/* "delay": the whole time, even through signals */
static void delay(unsigned long ms)
{
	struct timespec left = { (time_t)(ms / 1000),
	    (long)(ms % 1000) * 1000000 };

	while (nanosleep(&left, &left) != 0 && errno == EINTR)
		;
}

/* whether a fault counts calls of kind c */
static int wants(enum call c)
{
	setup();
	return cfg.fault[0].call == c || cfg.fault[1].call == c;
}

/* whether a fault counts calls on descriptors: those need following */
static int follows_fds(void)
{
	return wants(C_WRITE) || wants(C_READ) || wants(C_FSYNC) ||
	    wants(C_READDIR);
}

/* the last name of path ("files/00001/x": "x") */
static const char *last_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL && slash[1] != '\0' ? slash + 1 : path;
}

/*
 * The name of descriptor fd, opened by path: its last name, or for "."
 * and ".." the last name of the directory they are (as Linux tells)
 */
static void name_fd(int fd, const char *path, char *name, size_t size)
{
	const char *last = last_name(path);
	char link[32], dir[PATH_MAX];
	ssize_t n;
	size_t len;

	if (strcmp(last, ".") == 0 || strcmp(last, "..") == 0) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, dir, sizeof(dir) - 1);
		if (n > 0 && dir[0] == '/') {
			dir[n] = '\0';
			last = n > 1 ? last_name(dir) : dir;
		}
	}
	len = strlen(last) < size ? strlen(last) : size - 1;
	memcpy(name, last, len);
	name[len] = '\0';
}

/* fd, just opened by path, is ours (when faults count descriptors) */
static void follow(int fd, const char *path)
{
	struct stat st;
	int saved = errno;

	if (fd < 0 || fd >= FDS || !follows_fds())
		return;
	atomic_store(&fds[fd].ours, 0);
	if (fstat(fd, &st) == 0) {
		fds[fd].dev = st.st_dev;
		fds[fd].ino = st.st_ino;
		name_fd(fd, path, fds[fd].name, sizeof(fds[fd].name));
		atomic_store(&fds[fd].ours, 1);
	}
	errno = saved;
}

/* fd is not ours (any more) */
static void forget(int fd)
{
	if (fd >= 0 && fd < FDS)
		atomic_store(&fds[fd].ours, 0);
}

/* newfd, a copy of oldfd, is ours if oldfd is */
static void follow_dup(int oldfd, int newfd)
{
	if (newfd < 0 || newfd >= FDS || newfd == oldfd)
		return;
	forget(newfd);
	if (oldfd < 0 || oldfd >= FDS || !atomic_load(&fds[oldfd].ours))
		return;
	fds[newfd].dev = fds[oldfd].dev;
	fds[newfd].ino = fds[oldfd].ino;
	memcpy(fds[newfd].name, fds[oldfd].name, sizeof(fds[newfd].name));
	atomic_store(&fds[newfd].ours, 1);
}

/* the name descriptor fd of ours was opened by, or NULL: not ours */
static const char *fd_name(int fd)
{
	struct stat st;
	const char *name = NULL;
	int saved = errno;

	if (fd < 0 || fd >= FDS || !atomic_load(&fds[fd].ours))
		return NULL;
	if (fstat(fd, &st) == 0 && st.st_dev == fds[fd].dev &&
	    st.st_ino == fds[fd].ino)
		name = fds[fd].name;
	else
		forget(fd);
	errno = saved;
	return name;
}

static ssize_t (*next_write)(int, const void *, size_t);

/* CLYDE_FAULT_HITS: "CALL NAME N", one write (O_APPEND) of a whole line */
static void record(enum call c, const char *name, unsigned long n)
{
	const char *kind = "?";
	char line[NAME_MAX + 64];
	int fd, len, saved = errno;

	if (cfg.hits == NULL)
		return;
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (calls[i].call == c)
			kind = calls[i].name;
	len = snprintf(line, sizeof(line), "%s %s %lu\n", kind,
	    name != NULL ? name : "-", n);
	if (next_write == NULL)
		real("write", &next_write, sizeof(next_write));
	/* open: a call this library does not count */
	fd = open(cfg.hits, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (len > 0 && next_write(fd, line, (size_t)len) != len)
			fprintf(stderr, "fault_shim: %s: a short write\n",
			    cfg.hits);
		close(fd);
	}
	errno = saved;
}

/*
 * The fault that makes this call of kind c on the file named name (NULL:
 * none) fail, or NULL.  A call chosen to block or be delayed waits here,
 * then goes on as if not chosen.  Each fault counts the calls of its kind
 * on the files its glob (if any) matches.
 */
static const struct fault *hit(enum call c, const char *name)
{
	unsigned long n;

	setup();
	for (size_t i = 0; i < 2; i++) {
		struct fault *f = &cfg.fault[i];

		if (f->call != c || (f->file != NULL && (name == NULL ||
		    fnmatch(f->file, name, 0) != 0)))
			continue;
		n = atomic_fetch_add(&f->seen, 1) + 1;
		if (n < f->nth || (f->count != 0 && n >= f->nth + f->count))
			continue;
		record(c, name, n);
		if (f->err == E_BLOCK) {
			block();
			continue;
		}
		if (f->err == E_DELAY) {
			delay(f->delay_ms);
			continue;
		}
		return f;
	}
	return NULL;
}

/* errno for a failing call that cannot be short or skip */
static int fail_errno(const struct fault *f)
{
	return f->err > 0 ? f->err : EIO;
}

/* the call of kind c on the file named name is to fail: errno set, true */
static int fails(enum call c, const char *name)
{
	const struct fault *f = hit(c, name);

	if (f != NULL)
		errno = fail_errno(f);
	return f != NULL;
}

/* the fault for a call of kind c on descriptor fd, if it is ours */
static const struct fault *hit_fd(enum call c, int fd)
{
	const char *name;

	if (!wants(c) || (name = fd_name(fd)) == NULL)
		return NULL;
	return hit(c, name);
}

/*
 * For write and read: -1 when the call is to fail (errno set), else 0,
 * with *n halved when the call is to be short.
 */
static int inject(int fd, enum call c, size_t *n)
{
	const struct fault *f = hit_fd(c, fd);

	if (f == NULL)
		return 0;
	if (f->err > 0) {
		errno = f->err;
		return -1;
	}
	if (f->err == E_SHORT && *n > 1)
		*n /= 2;
	if (f->err == E_EOF)
		*n = 0;
	return 0;
}

/* CLYDE_FAULT_DIRECT_ALIGN: an O_DIRECT transfer of n bytes it refuses */
static int misaligned(int fd, size_t n)
{
	const char *v = getenv("CLYDE_FAULT_DIRECT_ALIGN");
	unsigned long align = v ? strtoul(v, NULL, 10) : 0;
	int fl;

	if (align == 0 || fd <= 2 || n % align == 0)
		return 0;
	fl = fcntl(fd, F_GETFL);
	return fl >= 0 && (fl & O_DIRECT) != 0;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	if (next_write == NULL)
		real("write", &next_write, sizeof(next_write));
	if (misaligned(fd, n)) {
		errno = EINVAL;
		return -1;
	}
	return inject(fd, C_WRITE, &n) < 0 ? -1 : next_write(fd, buf, n);
}

/* a call on clyde's files: not by an absolute path from the C library */
static int ours(int dfd, const char *path)
{
	return dfd != AT_FDCWD || path[0] != '/';
}

int mkdirat(int dfd, const char *path, mode_t mode)
{
	static int (*next)(int, const char *, mode_t);

	if (next == NULL)
		real("mkdirat", &next, sizeof(next));
	if (ours(dfd, path) && fails(C_MKDIR, last_name(path)))
		return -1;
	return next(dfd, path, mode);
}

pid_t fork(void)
{
	static pid_t (*next)(void);

	if (next == NULL)
		real("fork", &next, sizeof(next));
	return fails(C_FORK, NULL) ? -1 : next();
}

ssize_t read(int fd, void *buf, size_t n)
{
	static ssize_t (*next)(int, void *, size_t);

	if (next == NULL)
		real("read", &next, sizeof(next));
	if (misaligned(fd, n)) {
		errno = EINVAL;
		return -1;
	}
	return inject(fd, C_READ, &n) < 0 ? -1 : next(fd, buf, n);
}

static int do_openat(const char *sym, int dfd, const char *path, int flags,
    mode_t mode)
{
	int (*next)(int, const char *, int, ...);
	int fd, mine = ours(dfd, path);

	real(sym, &next, sizeof(next));
	if (mine && fails(C_OPENAT, last_name(path)))
		return -1;
	fd = next(dfd, path, flags, mode);
	if (mine)
		follow(fd, path);
	else
		forget(fd);
	return fd;
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

/* close(), fclose() and closedir(): the descriptor is no longer ours */
int close(int fd)
{
	static int (*next)(int);

	if (next == NULL)
		real("close", &next, sizeof(next));
	forget(fd);
	return next(fd);
}

#define DEFINE_CLOSE(sym, type, fd_of)					\
int sym(type *s)							\
{									\
	static int (*next)(type *);					\
									\
	if (next == NULL)						\
		real(#sym, &next, sizeof(next));			\
	forget(fd_of(s));						\
	return next(s);							\
}
DEFINE_CLOSE(fclose, FILE, fileno)
DEFINE_CLOSE(closedir, DIR, dirfd)

/* dup() and dup2(): the copy is ours when the original is */
int dup(int fd)
{
	static int (*next)(int);
	int rc;

	if (next == NULL)
		real("dup", &next, sizeof(next));
	rc = next(fd);
	follow_dup(fd, rc);
	return rc;
}

int dup2(int fd, int to)
{
	static int (*next)(int, int);
	int rc;

	if (next == NULL)
		real("dup2", &next, sizeof(next));
	rc = next(fd, to);
	follow_dup(fd, rc);
	return rc;
}

/* fstatat() and fstatat64(): the same struct on the 64-bit C libraries */
static int do_fstatat(const char *sym, int dfd, const char *path, void *st,
    int flags)
{
	int (*next)(int, const char *, void *, int);

	real(sym, &next, sizeof(next));
	if (ours(dfd, path) && fails(C_FSTATAT, last_name(path)))
		return -1;
	return next(dfd, path, st, flags);
}

int fstatat(int dfd, const char *path, struct stat *st, int flags)
{
	return do_fstatat("fstatat", dfd, path, st, flags);
}

int fstatat64(int dfd, const char *path, struct stat64 *st, int flags)
{
	return do_fstatat("fstatat64", dfd, path, st, flags);
}

/*
 * What statvfs() or fstatvfs() returned (rc, into vfs), with
 * CLYDE_FAULT_FREE_INODES and CLYDE_FAULT_FREE_MIB in it
 */
static int free_inodes(int rc, struct statvfs *vfs)
{
	const char *v = getenv("CLYDE_FAULT_FREE_INODES");
	const char *mib = getenv("CLYDE_FAULT_FREE_MIB");

	if (rc != 0)
		return rc;
	if (v != NULL) {
		vfs->f_ffree = vfs->f_favail = strtoul(v, NULL, 10);
		if (vfs->f_files < vfs->f_ffree)
			vfs->f_files = vfs->f_ffree;
	}
	if (mib != NULL && vfs->f_frsize > 0) {
		vfs->f_bfree = vfs->f_bavail = strtoull(mib, NULL, 10) *
		    1024 * 1024 / vfs->f_frsize;
		if (vfs->f_blocks < vfs->f_bfree)
			vfs->f_blocks = vfs->f_bfree;
	}
	return rc;
}

/* statvfs() and statvfs64(): the same struct on the 64-bit C libraries */
static int do_statvfs(const char *sym, const char *path, void *buf)
{
	int (*next)(const char *, void *);

	real(sym, &next, sizeof(next));
	return fails(C_STATVFS, NULL) ? -1 : free_inodes(next(path, buf), buf);
}

int statvfs(const char *path, struct statvfs *buf)
{
	return do_statvfs("statvfs", path, buf);
}

int statvfs64(const char *path, struct statvfs64 *buf)
{
	return do_statvfs("statvfs64", path, buf);
}

/* fstatvfs() and fstatvfs64(): the same, on the target's descriptor */
static int do_fstatvfs(const char *sym, int fd, void *buf)
{
	int (*next)(int, void *);

	real(sym, &next, sizeof(next));
	return fails(C_STATVFS, NULL) ? -1 : free_inodes(next(fd, buf), buf);
}

int fstatvfs(int fd, struct statvfs *buf)
{
	return do_fstatvfs("fstatvfs", fd, buf);
}

int fstatvfs64(int fd, struct statvfs64 *buf)
{
	return do_fstatvfs("fstatvfs64", fd, buf);
}

/* linkat() and renameat(): "link", counted by the name the file had */
static int link_fails(int ofd, const char *old)
{
	return ours(ofd, old) && fails(C_LINK, last_name(old));
}

/* the directory that holds path (from dfd), into st: 0 or -1 */
static int parent_of(int dfd, const char *path, struct stat *st)
{
	int (*stat_at)(int, const char *, struct stat *, int);
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];

	real("fstatat", &stat_at, sizeof(stat_at));
	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 :
		    (int)(slash - path), path);
	return stat_at(dfd, dir, st, 0);
}

/*
 * CLYDE_FAULT_LINK_ONE_DIR: a link from old (from ofd) to new (from nfd)
 * in another directory, which AFS refuses: errno EXDEV, true
 */
static int other_dir(int ofd, const char *old, int nfd, const char *new)
{
	const char *v = getenv("CLYDE_FAULT_LINK_ONE_DIR");
	struct stat a, b;
	int saved = errno;

	if (v == NULL || strcmp(v, "1") != 0 || !ours(ofd, old))
		return 0;
	if (parent_of(ofd, old, &a) == 0 && parent_of(nfd, new, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
		errno = saved;
		return 0;
	}
	errno = EXDEV;
	return 1;
}

int linkat(int ofd, const char *old, int nfd, const char *new, int flags)
{
	static int (*next)(int, const char *, int, const char *, int);

	if (next == NULL)
		real("linkat", &next, sizeof(next));
	if (link_fails(ofd, old) || other_dir(ofd, old, nfd, new))
		return -1;
	return next(ofd, old, nfd, new, flags);
}

int link(const char *old, const char *new)
{
	static int (*next)(const char *, const char *);

	if (next == NULL)
		real("link", &next, sizeof(next));
	if (link_fails(AT_FDCWD, old) ||
	    other_dir(AT_FDCWD, old, AT_FDCWD, new))
		return -1;
	return next(old, new);
}

int renameat(int ofd, const char *old, int nfd, const char *new)
{
	static int (*next)(int, const char *, int, const char *);

	if (next == NULL)
		real("renameat", &next, sizeof(next));
	return link_fails(ofd, old) ? -1 : next(ofd, old, nfd, new);
}

int fsync(int fd)
{
	static int (*next)(int);
	const struct fault *f;

	if (next == NULL)
		real("fsync", &next, sizeof(next));
	if ((f = hit_fd(C_FSYNC, fd)) != NULL) {
		errno = fail_errno(f);
		return -1;
	}
	return next(fd);
}

/* "<name> <size>" of a data file about to go, for CLYDE_FAULT_LOG */
static void log_size(int dfd, const char *path)
{
	int (*stat_at)(int, const char *, struct stat *, int);
	struct stat st;
	FILE *f;

	real("fstatat", &stat_at, sizeof(stat_at));
	if (strncmp(path, "Bonnie.", 7) != 0 ||
	    stat_at(dfd, path, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !S_ISREG(st.st_mode))
		return;
	f = fopen(cfg.log, "a");
	if (f != NULL) {
		fprintf(f, "%s %lld\n", path, (long long)st.st_size);
		fclose(f);
	}
}

int unlinkat(int dfd, const char *path, int flags)
{
	static int (*next)(int, const char *, int);
	const char *name = last_name(path);
	int rc;

	if (next == NULL)
		real("unlinkat", &next, sizeof(next));
	setup();
	if (cfg.log != NULL)
		log_size(dfd, path);
	if (ours(dfd, path) && (fails(C_UNLINKAT, name) ||
	    fails(flags & AT_REMOVEDIR ? C_RMDIR : C_UNLINK, name)))
		return -1;
	rc = next(dfd, path, flags);
	if (rc != 0 && errno == ENOTEMPTY && (flags & AT_REMOVEDIR) &&
	    getenv("CLYDE_FAULT_RMDIR_EEXIST") != NULL &&
	    strcmp(getenv("CLYDE_FAULT_RMDIR_EEXIST"), "1") == 0)
		errno = EEXIST;
	if (rc != 0 || cfg.fault[0].call != (flags & AT_REMOVEDIR ?
	    C_READDIR_SKIP_DIRS : C_READDIR_SKIP))
		return rc;
	if (dfd >= 0 && dfd < FDS)
		atomic_fetch_add(&skip_next[dfd], 1);
	else if (dfd == AT_FDCWD && strchr(path, '/') == NULL)
		atomic_fetch_add(&skip_cwd, 1);
	return rc;
}

static int is_dot(const char *name)
{
	return name[0] == '.' && (name[1] == '\0' ||
	    (name[1] == '.' && name[2] == '\0'));
}

/* whether descriptor fd is open on the working directory */
static int is_cwd(int fd)
{
	struct stat a, b;
	int saved = errno, same;

	same = fstat(fd, &a) == 0 && stat(".", &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	errno = saved;          /* readdir()'s end leaves errno as it was */
	return same;
}

static int take_one(atomic_uint *count)
{
	unsigned n = atomic_load(count);

	while (n > 0 && !atomic_compare_exchange_weak(count, &n, n - 1))
		;
	return n > 0;
}

/* one pending pass-over on fd taken, if there is one */
static int take_skip(int fd)
{
	return take_one(&skip_next[fd]) ||
	    (atomic_load(&skip_cwd) > 0 && is_cwd(fd) && take_one(&skip_cwd));
}

/*
 * readdir() and readdir64(): with "readdir" chosen, fail or pass over one
 * entry; with "readdir_skip", pass over one entry (not . or ..) for each
 * unlinkat() in this directory since the last call.  The end of the
 * directory forgets what is pending.
 */
#define DEFINE_READDIR(sym, ent)					\
struct ent *sym(DIR *dir)						\
{									\
	static struct ent *(*next)(DIR *);				\
	const struct fault *f;						\
	struct ent *e;							\
	int fd = dirfd(dir);						\
									\
	if (next == NULL)						\
		real(#sym, &next, sizeof(next));			\
	if (fd < 0 || fd >= FDS)					\
		return next(dir);					\
	if ((f = hit_fd(C_READDIR, fd)) != NULL) {			\
		if (f->err > 0) {					\
			errno = f->err;					\
			return NULL;					\
		}							\
		if (f->err == E_SKIP)					\
			atomic_fetch_add(&skip_next[fd], 1);		\
	}								\
	while ((e = next(dir)) != NULL && !is_dot(e->d_name) &&	\
	    take_skip(fd))						\
		;							\
	if (e == NULL) {						\
		atomic_store(&skip_next[fd], 0);			\
		if (atomic_load(&skip_cwd) > 0 && is_cwd(fd))		\
			atomic_store(&skip_cwd, 0);			\
	}								\
	return e;							\
}
DEFINE_READDIR(readdir, dirent)
DEFINE_READDIR(readdir64, dirent64)
