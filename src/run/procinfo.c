/*
 * run/procinfo.c: what /proc (Linux) tells of another process: the system
 * call a thread is in and the file it names (syscall, fd/, mem), the
 * state and parent of a process or thread (stat), how far a thread has
 * run (schedstat).  Elsewhere nothing is known.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include "run/procinfo.h"
#include "lib/fdio.h"

#ifdef __linux__
/*
 * The file behind descriptor fd of process pid, or "": AT_FDCWD is its
 * working directory (the small-file phases work in theirs).
 */
static void fd_path(pid_t pid, long fd, char *out, size_t n)
{
	char link[64];
	ssize_t len;

	if (fd == AT_FDCWD)
		snprintf(link, sizeof(link), "/proc/%ld/cwd", (long)pid);
	else
		snprintf(link, sizeof(link), "/proc/%ld/fd/%ld", (long)pid, fd);
	len = readlink(link, out, n - 1);
	out[len > 0 ? len : 0] = '\0';
}

/* A string at address addr of process pid, through /proc/PID/mem. */
static void string_at(pid_t pid, unsigned long addr, char *out, size_t n)
{
	char path[64];
	ssize_t got = -1;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/mem", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		got = pread(fd, out, n - 1, (off_t)addr);
		close(fd);
	}
	out[got > 0 ? got : 0] = '\0';
	out[strnlen(out, n - 1)] = '\0';
}

static const struct {
	long nr;
	const char *name;
	int kind;               /* 1: fd first; 2: dirfd and path first */
} calls[] = {
#ifdef SYS_read
	{ SYS_read, "read", 1 },
#endif
#ifdef SYS_write
	{ SYS_write, "write", 1 },
#endif
#ifdef SYS_close
	{ SYS_close, "close", 1 },
#endif
#ifdef SYS_fsync
	{ SYS_fsync, "fsync", 1 },
#endif
#ifdef SYS_fdatasync
	{ SYS_fdatasync, "fdatasync", 1 },
#endif
#ifdef SYS_lseek
	{ SYS_lseek, "lseek", 1 },
#endif
#ifdef SYS_getdents64
	{ SYS_getdents64, "readdir", 1 },
#endif
#ifdef SYS_openat
	{ SYS_openat, "open", 2 },
#endif
#ifdef SYS_unlinkat
	{ SYS_unlinkat, "unlink", 2 },
#endif
#ifdef SYS_newfstatat
	{ SYS_newfstatat, "stat", 2 },
#endif
#ifdef SYS_statx
	{ SYS_statx, "stat", 2 },
#endif
#ifdef SYS_mkdirat
	{ SYS_mkdirat, "mkdir", 2 },
#endif
#ifdef SYS_symlinkat
	{ SYS_symlinkat, "symlink", 0 },
#endif
#ifdef SYS_linkat
	{ SYS_linkat, "link", 0 },
#endif
#ifdef SYS_sync
	{ SYS_sync, "sync", 0 },
#endif
#ifdef SYS_wait4
	{ SYS_wait4, "waitpid (for the seekers)", 0 },
#endif
};

/*
 * "open(/mnt/nfs/clyde.1.x/files/00000001ab)": the call thread tid of pid
 * is in; a read of a pipe by a process with seekers waits for them to
 * start (phases/seek.c)
 */
void procinfo_call(pid_t pid, long tid, bool seekers, char *out,
    size_t n)
{
	char path[64], line[256], file[PATH_MAX], name[NAME_MAX + 1];
	unsigned long a[3];
	long nr;
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/syscall", (long)pid,
	    tid);
	if (tid == 0 || (f = fopen(path, "re")) == NULL)
		return;
	if (fgets(line, sizeof(line), f) == NULL ||
	    sscanf(line, "%ld %lx %lx %lx", &nr, &a[0], &a[1], &a[2]) != 4) {
		fclose(f);
		return;
	}
	fclose(f);
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		if (calls[i].nr != nr)
			continue;
		if (calls[i].kind == 1) {
			fd_path(pid, (long)a[0], file, sizeof(file));
			if (seekers && strncmp(file, "pipe:", 5) == 0)
				snprintf(out, n, "%s (for the seekers)",
				    calls[i].name);
			else
				snprintf(out, n, "%s(%s)", calls[i].name, file);
		} else if (calls[i].kind == 2) {
			fd_path(pid, (long)(int)a[0], file, sizeof(file));
			string_at(pid, a[1], name, sizeof(name));
			/* unlinkat(AT_REMOVEDIR) is the rmdir of --dirs, cleanup */
			snprintf(out, n, "%s(%s%s%s)",
			    strcmp(calls[i].name, "unlink") == 0 &&
			    (a[2] & AT_REMOVEDIR) ? "rmdir" : calls[i].name, file,
			    file[0] != '\0' && name[0] != '/' ? "/" : "", name);
		} else {
			snprintf(out, n, "%s", calls[i].name);
		}
		return;
	}
}

/*
 * The state letter of /proc/PID/stat ('T': stopped), or 0; *ppid its
 * parent.  The name in parentheses may hold anything: read after the
 * last ')'.
 */
static char proc_state(const char *path, pid_t *ppid)
{
	char buf[512], *p;
	long pp = 0;
	char state = 0;

	if (read_small_file(path, buf, sizeof(buf)) <= 0 ||
	    (p = strrchr(buf, ')')) == NULL ||
	    sscanf(p + 1, " %c %ld", &state, &pp) != 2)
		return 0;
	if (ppid != NULL)
		*ppid = (pid_t)pp;
	return state;
}

char procinfo_pid_state(pid_t pid, pid_t *ppid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	return proc_state(path, ppid);
}

char procinfo_task_state(pid_t pid, long tid)
{
	char path[96];

	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/stat", (long)pid, tid);
	return proc_state(path, NULL);
}

/*
 * How far thread tid of pid has gone: its CPU time and the times it was
 * scheduled (schedstat), which a thread in a call that hangs does not
 * move; 0 unknown
 */
uint64_t procinfo_run_count(pid_t pid, long tid)
{
	char path[96], buf[128];
	unsigned long long ns, waited, times;

	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/schedstat", (long)pid,
	    tid);
	if (tid == 0 || read_small_file(path, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%llu %llu %llu", &ns, &waited, &times) != 3)
		return 0;
	return ns + times + 1;
}
#else
void procinfo_call(pid_t pid, long tid, bool seekers, char *out,
    size_t n)
{
	(void)pid;
	(void)tid;
	(void)seekers;
	(void)n;
	out[0] = '\0';
}

uint64_t procinfo_run_count(pid_t pid, long tid)
{
	(void)pid;
	(void)tid;
	return 0;
}

char procinfo_pid_state(pid_t pid, pid_t *ppid)
{
	(void)pid;
	(void)ppid;
	return 0;
}

char procinfo_task_state(pid_t pid, long tid)
{
	(void)pid;
	(void)tid;
	return 0;
}
#endif
