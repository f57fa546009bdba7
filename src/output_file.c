/*
 * output_file.c: see output_file.h.
 */
/* renameat2() is Linux's: glibc shows it with _GNU_SOURCE */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "output_file.h"
#include "util.h"

/* what the keeper reads to link the file into place; anything else removes it */
#define KEEP 'k'

/* The directory part of path and its last name. */
struct place {
	int dir_fd;
	const char *base;
	char tmp[NAME_MAX + 1];         /* the temporary name, in the same directory */
	int fd;                         /* the keeper's descriptor of the file made */
	dev_t dev;                      /* the temporary file as made */
	ino_t ino;
};

static void say(const char *path, const char *why, const char *after)
{
	fprintf(stderr, "clyde: --json %s: %s%s\n", path, why, after);
}

/* Whether name in pl's directory is the temporary file as made. */
static bool is_made(const struct place *pl, const char *name)
{
	struct stat st;

	return fstatat(pl->dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    st.st_dev == pl->dev && st.st_ino == pl->ino;
}

/* The temporary name, removed only while it is still the file made. */
static void remove_tmp(const struct place *pl)
{
	if (is_made(pl, pl->tmp))
		unlinkat(pl->dir_fd, pl->tmp, 0);
}

/*
 * The file made under its own name, never over another file, and never
 * whatever else was put under the temporary name during the run (a
 * forged file, a link to another): the inode is linked through the
 * descriptor the keeper holds; without /proc, by the temporary name once
 * it is seen to be the file made.
 */
static int put_in_place(const struct place *pl)
{
	char self[64];

	snprintf(self, sizeof(self), "/proc/self/fd/%d", pl->fd);
	if (linkat(AT_FDCWD, self, pl->dir_fd, pl->base,
	    AT_SYMLINK_FOLLOW) == 0)
		return 0;
	if (errno == EEXIST)
		return -1;
	if (!is_made(pl, pl->tmp)) {
		errno = ESTALE;
		return -1;
	}
	if (linkat(pl->dir_fd, pl->tmp, pl->dir_fd, pl->base, 0) == 0)
		return 0;
	/* a filesystem without hard links (vfat, some FUSE ones) */
	if (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP &&
	    errno != EMLINK)
		return -1;
#ifdef RENAME_NOREPLACE
	return renameat2(pl->dir_fd, pl->tmp, pl->dir_fd, pl->base,
	    RENAME_NOREPLACE);
#else
	return -1;
#endif
}

/* The temporary file named as path names its directory, in a static buffer */
static const char *tmp_path(const char *path, const char *tmp)
{
	static char out[PATH_MAX + NAME_MAX + 2];
	const char *slash = strrchr(path, '/');

	snprintf(out, sizeof(out), "%.*s%s", slash != NULL ?
	    (int)(slash - path + 1) : 0, path, tmp);
	return out;
}

/*
 * The keeper: it waits for clyde's word on the pipe, or for its end
 * when clyde ended without one, and never for a signal of the terminal:
 * those are clyde's to take.
 */
static void keep_or_remove(const char *path, const struct place *pl, int in)
{
	static const int ignored[] = { SIGINT, SIGTERM, SIGQUIT, SIGHUP,
	    SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGXFSZ, SIGXCPU };
	struct sigaction sa;
	char word = 0;
	ssize_t got;
	int status = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
		sigaction(ignored[i], &sa, NULL);
	/* a reader of clyde's output must not wait for the keeper */
	close(STDIN_FILENO);
	close(STDOUT_FILENO);
	while ((got = read(in, &word, 1)) < 0 && errno == EINTR)
		;
	if (got == 1 && word == KEEP && put_in_place(pl) != 0) {
		char why[NAME_MAX + 128];
		int err = errno;

		if (err == ESTALE)
			snprintf(why, sizeof(why), "its temporary file %s was "
			    "removed or replaced during the run, and clyde puts "
			    "in place only the file it made", pl->tmp);
		else
			snprintf(why, sizeof(why), "%s", strerror(err));
		if (err == EEXIST && is_made(pl, pl->tmp)) {
			/* the records are whole: kept, under the name said */
			snprintf(why, sizeof(why), "%s (made during the run; "
			    "clyde never overwrites a file); the records are "
			    "kept in ", strerror(err));
			say(path, why, tmp_path(path, pl->tmp));
			_exit(1);
		}
		say(path, why, err == EEXIST ? " (made during the run; "
		    "clyde never overwrites a file); the file is not made" :
		    "; the file is not made");
		status = 1;
	}
	remove_tmp(pl);
	_exit(status);
}

/*
 * A temporary name in pl's directory: .BASE.XXXXXX, as rsync's, or
 * .clyde-json.XXXXXX when BASE is too long for that.
 */
static int make_tmp(struct place *pl)
{
	uint64_t seed = (uint64_t)getpid() * 2654435761U ^ (uint64_t)time(NULL);
	int fd = -1;

	for (int tries = 0; tries < 100 && fd < 0; tries++) {
		char suffix[7];

		random_name_chars(suffix, 6, &seed);
		suffix[6] = '\0';
		/* a name that is allowed has a temporary name too */
		if (snprintf(pl->tmp, sizeof(pl->tmp), ".%s.%s", pl->base,
		    suffix) >= (int)sizeof(pl->tmp))
			snprintf(pl->tmp, sizeof(pl->tmp), ".clyde-json.%s",
			    suffix);
		fd = openat(pl->dir_fd, pl->tmp, O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			return -1;
	}
	return fd;
}

int output_file_open(struct output_file *f, const char *path)
{
	struct place pl;
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	struct stat st;
	int pipe_fd[2], err;

	memset(f, 0, sizeof(*f));
	f->path = path;
	f->fd = f->keeper_fd = -1;
	memset(&pl, 0, sizeof(pl));
	pl.base = slash != NULL ? slash + 1 : path;
	if (slash == NULL || slash == path)
		snprintf(dir, sizeof(dir), "%s", slash == NULL ? "." : "/");
	else if (snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path),
	    path) >= (int)sizeof(dir)) {
		say(path, strerror(ENAMETOOLONG), "");
		return -1;
	}
	if (*pl.base == '\0') {
		say(path, "a directory, not a file name", "");
		return -1;
	}
	pl.dir_fd = open(dir, dir_search_only() | O_DIRECTORY | O_CLOEXEC);
	if (pl.dir_fd < 0) {
		say(path, strerror(errno), "");
		return -1;
	}
	err = fstatat(pl.dir_fd, pl.base, &st, AT_SYMLINK_NOFOLLOW) == 0 ?
	    EEXIST : errno;
	if (err != ENOENT) {
		say(path, strerror(err), err == EEXIST ?
		    " (clyde never overwrites a file)" : "");
		close(pl.dir_fd);
		return -1;
	}
	f->fd = make_tmp(&pl);
	if (f->fd < 0 || fstat(f->fd, &st) != 0 ||
	    pipe2(pipe_fd, O_CLOEXEC) != 0) {
		say(path, strerror(errno), "");
		if (f->fd >= 0) {
			close(f->fd);
			unlinkat(pl.dir_fd, pl.tmp, 0);
		}
		close(pl.dir_fd);
		f->fd = -1;
		return -1;
	}
	pl.dev = st.st_dev;
	pl.ino = st.st_ino;
	fflush(stderr);
	f->keeper = fork();
	if (f->keeper == 0) {
		close(pipe_fd[1]);
		pl.fd = f->fd;
		keep_or_remove(path, &pl, pipe_fd[0]);
	}
	err = errno;
	close(pipe_fd[0]);
	if (f->keeper < 0) {
		say(path, strerror(err), "");
		close(pipe_fd[1]);
		close(f->fd);
		f->fd = -1;
		remove_tmp(&pl);
		close(pl.dir_fd);
		return -1;
	}
	close(pl.dir_fd);
	snprintf(f->tmp, sizeof(f->tmp), "%s", pl.tmp);
	f->keeper_fd = pipe_fd[1];
	return 0;
}

void output_file_write(struct output_file *f, const void *buf, size_t n)
{
	struct sigaction ignore, old;
	ssize_t done;
	int err;

	if (f->fd < 0 || f->failed)
		return;
	/* past the file size limit: EFBIG here, not a signal that stops the run */
	memset(&ignore, 0, sizeof(ignore));
	ignore.sa_handler = SIG_IGN;
	sigemptyset(&ignore.sa_mask);
	sigaction(SIGXFSZ, &ignore, &old);
	done = write_all(f->fd, buf, n);
	err = done < 0 ? errno : EIO;
	sigaction(SIGXFSZ, &old, NULL);
	if (done == (ssize_t)n)
		return;
	f->failed = true;
	say(f->path, strerror(err), "; the file is not made");
}

int output_file_close(struct output_file *f, bool keep)
{
	char word = KEEP;
	int status = 0;
	bool asked = keep;

	if (f->fd < 0)
		return 0;
	/* a network filesystem may report a lost write only now */
	if (close(f->fd) != 0 && !f->failed) {
		f->failed = true;
		say(f->path, strerror(errno), "; the file is not made");
	}
	f->fd = -1;
	keep = keep && !f->failed;
	if (keep && write_all(f->keeper_fd, &word, 1) != 1)
		keep = false;
	close(f->keeper_fd);
	f->keeper_fd = -1;
	while (waitpid(f->keeper, &status, 0) < 0 && errno == EINTR)
		;
	if (!asked)
		return 0;
	if (f->failed)
		return -1;
	if (!keep || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		/* the keeper said why, unless it is gone */
		if (!WIFEXITED(status))
			say(f->path, "the process that puts it in place ended; "
			    "the file is not made, its records are left in ",
			    tmp_path(f->path, f->tmp));
		return -1;
	}
	return 0;
}
