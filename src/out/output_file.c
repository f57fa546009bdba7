/*
 * out/output_file.c: see out/output_file.h.
 */
/* renameat2() is Linux's: glibc shows it with _GNU_SOURCE */
#define _GNU_SOURCE
#include <dirent.h>
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

#include "out/output_file.h"
#include "out/json.h"
#include "lib/fdio.h"
#include "lib/rng.h"
#include "lib/sys.h"
#include "lib/text.h"

/* what the keeper reads to link the file into place; anything else removes it */
#define KEEP 'k'

/* the file made, in the keeper's directory of put_by_name() */
#define PRIVATE_NAME "records"

/* the start of the records' array (-x, a sweep), before the first */
#define ARRAY_START "[\n"

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

/* a filesystem without hard links (vfat, some FUSE ones) */
static bool no_hard_links(int err)
{
	return err == EPERM || err == ENOTSUP || err == EOPNOTSUPP ||
	    err == EMLINK;
}

/* from (in from_fd) renamed to, never over a file: renameat2()'s */
static int rename_noreplace(int from_fd, const char *from, int to_fd,
    const char *to)
{
#ifdef RENAME_NOREPLACE
	return renameat2(from_fd, from, to_fd, to, RENAME_NOREPLACE);
#else
	(void)from_fd, (void)from, (void)to_fd, (void)to;
	errno = ENOSYS;
	return -1;
#endif
}

/*
 * from renamed to as rename_noreplace() does, or else by a hard link;
 * where the filesystem can do neither, renamed when nothing is under to.
 */
static int rename_back(int from_fd, const char *from, int to_fd,
    const char *to)
{
	struct stat st;

	if (rename_noreplace(from_fd, from, to_fd, to) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* a link never takes a name that is there */
	if (linkat(from_fd, from, to_fd, to, 0) == 0)
		return unlinkat(from_fd, from, 0);
	if (!no_hard_links(errno) || fstatat(to_fd, to, &st,
	    AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT)
		return -1;
	return renameat(from_fd, from, to_fd, to);
}

/*
 * A directory of the keeper's, .clyde-link.XXXXXX in pl's directory,
 * that no other user can write in, open into *fd, its name into name[n];
 * false when it cannot be made, or its name no longer leads to it.
 */
static bool private_dir(const struct place *pl, char *name, size_t n, int *fd)
{
	uint64_t seed = (uint64_t)getpid() * 2654435761U ^ (uint64_t)pl->ino;
	struct stat st;
	int tries, made = -1;

	for (tries = 0; tries < 100 && made != 0; tries++) {
		char suffix[7];

		random_name_chars(suffix, 6, &seed);
		suffix[6] = '\0';
		snprintf(name, n, ".clyde-link.%s", suffix);
		if ((made = mkdirat(pl->dir_fd, name, 0700)) != 0 &&
		    errno != EEXIST)
			return false;
	}
	if (made != 0)
		return false;
	*fd = openat(pl->dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (*fd >= 0 && fstat(*fd, &st) == 0 && st.st_uid == geteuid() &&
	    (st.st_mode & 077) == 0)
		return true;
	if (*fd >= 0)
		close(*fd);
	errno = ESTALE;
	return false;
}

/*
 * Without /proc: whatever the temporary name holds is moved into a
 * directory of the keeper's, where no other user can put anything in its
 * place, and linked from there only once it is seen to be the file made:
 * another's file is never linked, even one put under the temporary name
 * just before the move.  Then it goes back under the temporary name, the
 * file made to be removed or kept there, another's left as it was found.
 */
static int put_by_name(const struct place *pl)
{
	char priv[32];
	struct stat st, own;
	int pfd, rc = -1, err;

	if (!private_dir(pl, priv, sizeof(priv), &pfd))
		return -1;
	if (renameat(pl->dir_fd, pl->tmp, pfd, PRIVATE_NAME) != 0)
		err = errno == ENOENT ? ESTALE : errno;
	else if (fstatat(pfd, PRIVATE_NAME, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    st.st_dev != pl->dev || st.st_ino != pl->ino)
		err = ESTALE;
	else if ((rc = linkat(pfd, PRIVATE_NAME, pl->dir_fd, pl->base, 0)) != 0 &&
	    no_hard_links(errno))
		err = (rc = rename_noreplace(pfd, PRIVATE_NAME, pl->dir_fd,
		    pl->base)) != 0 ? errno : 0;
	else
		err = rc != 0 ? errno : 0;
	(void)rename_back(pfd, PRIVATE_NAME, pl->dir_fd, pl->tmp);
	/* removed while it is still the directory made (empty: else kept) */
	if (fstat(pfd, &own) == 0 && fstatat(pl->dir_fd, priv, &st,
	    AT_SYMLINK_NOFOLLOW) == 0 && st.st_dev == own.st_dev &&
	    st.st_ino == own.st_ino)
		unlinkat(pl->dir_fd, priv, AT_REMOVEDIR);
	close(pfd);
	errno = err;
	return rc;
}

/*
 * The file made under its own name, never over another file, and never
 * whatever else was put under the temporary name during the run (a
 * forged file, a link to another): the inode is linked through the
 * descriptor the keeper holds; without /proc, by put_by_name().
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
	return put_by_name(pl);
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
 * Whether name is one that make_tmp() makes, of any BASE: .BASE.XXXXXX
 * (.clyde-json.XXXXXX is one), without a control character.
 */
static bool is_tmp_name(const char *name)
{
	size_t len = strlen(name);

	return name[0] == '.' && len > 8 && name[len - 7] == '.' &&
	    is_random_name(name + len - 6, 6) && find_control(name) == NULL;
}

/*
 * Whether the regular file open on fd begins as a --json file does from
 * the moment it is made, with a record's start (after an array's).
 */
static bool begins_as_records(int fd)
{
	char head[sizeof(ARRAY_START REPORT_JSON_START)];
	size_t rec = sizeof(REPORT_JSON_START) - 1;
	ssize_t got = pread(fd, head, sizeof(head) - 1, 0);

	if (got < 0)
		return false;
	if ((size_t)got >= rec && memcmp(head, REPORT_JSON_START, rec) == 0)
		return true;
	return (size_t)got == sizeof(head) - 1 &&
	    memcmp(head, ARRAY_START REPORT_JSON_START, sizeof(head) - 1) == 0;
}

/*
 * The lock that tells a later run that this one still holds the file
 * (ask false), or the question whether a run does (ask true): an open
 * file description's, which the keeper shares, which lasts until both
 * have closed the file and which a killed process lets go.  The lock's
 * type (F_UNLCK: nobody holds it), or -1 on a filesystem without locks:
 * a run then goes on, and a later one cannot tell.
 */
static int whole_file_lock(int fd, bool ask)
{
#ifdef F_OFD_SETLK
	struct flock lk;

	memset(&lk, 0, sizeof(lk));
	lk.l_type = F_WRLCK;
	lk.l_whence = SEEK_SET;
	return fcntl(fd, ask ? F_OFD_GETLK : F_OFD_SETLK, &lk) != 0 ? -1 :
	    lk.l_type;
#else
	(void)fd;
	(void)ask;
	return -1;
#endif
}

/*
 * Whether name in the directory open on dir_fd is the temporary file of
 * a run that ended without removing it (killed with its keeper): a
 * regular file (not a link to one) of this user's, that begins with
 * records and that no run holds.  It is opened only once seen to be a
 * regular file, and never blocks (O_NONBLOCK: a FIFO put there since).
 */
static bool left_by_a_run(int dir_fd, const char *name)
{
	struct stat st, now;
	bool left;
	int fd;

	if (!is_tmp_name(name) ||
	    fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
		return false;
	fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return false;
	left = fstat(fd, &now) == 0 && S_ISREG(now.st_mode) &&
	    now.st_dev == st.st_dev && now.st_ino == st.st_ino &&
	    begins_as_records(fd) && whole_file_lock(fd, true) == F_UNLCK &&
	    /* a run that ended lets the lock go only once the name is gone */
	    fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    st.st_ino == now.st_ino && st.st_dev == now.st_dev;
	close(fd);
	return left;
}

/*
 * Name each temporary file that a killed run left in the directory of
 * path (open on dir_fd), with the command to remove it, as the scratch
 * directories of killed runs are named; never remove it: its records
 * are the user's.
 */
static void report_left(const char *path, int dir_fd)
{
	char quoted[2 * (PATH_MAX + NAME_MAX + 2)];
	struct dirent *de;
	int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (d == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		const char *left;

		if (!left_by_a_run(dirfd(d), de->d_name))
			continue;
		left = tmp_path(path, de->d_name);
		shell_quote(quoted, sizeof(quoted), left);
		fprintf(stderr, "clyde: %s is the --json temporary file of an "
		    "earlier run that is no longer running: its records were "
		    "never put in place; remove it with: rm -f %s\n", left,
		    quoted);
	}
	closedir(d);
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

int output_file_open(struct output_file *f, const char *path, bool array)
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
	report_left(path, pl.dir_fd);
	f->fd = make_tmp(&pl);
	if (f->fd >= 0)
		(void)whole_file_lock(f->fd, false);
	snprintf(f->lead, sizeof(f->lead), "%s" REPORT_JSON_START,
	    array ? ARRAY_START : "");
	f->lead_len = strlen(f->lead);
	if (f->fd < 0 || fstat(f->fd, &st) != 0 ||
	    write_all(f->fd, f->lead, f->lead_len) != (ssize_t)f->lead_len ||
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
	/* the start written when the file was made is the records' own */
	while (f->lead_done < f->lead_len && n > 0 &&
	    *(const char *)buf == f->lead[f->lead_done]) {
		buf = (const char *)buf + 1;
		n--;
		f->lead_done++;
	}
	if (f->lead_done < f->lead_len && n > 0) {
		/* other text: the file is what was written, from its start */
		f->lead_len = f->lead_done;
		if (ftruncate(f->fd, (off_t)f->lead_done) != 0 ||
		    lseek(f->fd, (off_t)f->lead_done, SEEK_SET) < 0) {
			f->failed = true;
			say(f->path, strerror(errno), "; the file is not made");
			return;
		}
	}
	if (n == 0)
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
