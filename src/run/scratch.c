/*
 * run/scratch.c: the one directory a run makes in the target,
 * clyde.PID.XXXXXX, and the report of those that killed runs left.
 *
 * The directory holds a record of where it was made, RECORD_NAME: the
 * host, the boot and the PID namespace.  A PID says whether a run still
 * runs only on the same host, boot and namespace: a target shared over
 * NFS or GlusterFS, or a run under unshare -p, has others.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "phases/ctx.h"
#include "phases/names.h"
#include "run/scratch.h"
#include "lib/fdio.h"
#include "lib/rng.h"
#include "lib/sys.h"
#include "lib/text.h"

#define RECORD_NAME "made-by"
/* what a record may hold: three short lines; a larger file is another's */
#define RECORD_MAX 4096

/* Where a run was made: each field "" when it cannot be told. */
struct origin {
	char host[256];
	char boot[64];          /* the kernel's boot id: the host since it started */
	char pidns[64];         /* "pid:[INODE]": what a PID means */
};

/* The first line of file, without its newline, into out ("" if none) */
static void read_line(const char *file, char *out, size_t n)
{
	FILE *f = fopen(file, "re");

	out[0] = '\0';
	if (f == NULL)
		return;
	if (fgets(out, (int)n, f) == NULL)
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	fclose(f);
}

static void origin_here(struct origin *o)
{
	ssize_t len;

	memset(o, 0, sizeof(*o));
	if (gethostname(o->host, sizeof(o->host) - 1) != 0)
		o->host[0] = '\0';
	o->host[strcspn(o->host, "\n")] = '\0';
	read_line("/proc/sys/kernel/random/boot_id", o->boot, sizeof(o->boot));
	len = readlink("/proc/self/ns/pid", o->pidns, sizeof(o->pidns) - 1);
	o->pidns[len > 0 ? len : 0] = '\0';
}

/*
 * The record of the scratch directory open on fd; false when there is
 * none (emptied by a run that ended), or it is no regular file, or one
 * larger than a record: a FIFO of that name must not hold the run at its
 * start, nor a file of a terabyte be read to its end.
 */
static bool origin_read(int fd, struct origin *o)
{
	char line[320];
	struct stat st;
	size_t seen = 0;
	FILE *f;
	int rfd = openat(fd, RECORD_NAME,
	    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	memset(o, 0, sizeof(*o));
	if (rfd < 0 || fstat(rfd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > RECORD_MAX || (f = fdopen(rfd, "r")) == NULL) {
		if (rfd >= 0)
			close(rfd);
		return false;
	}
	/* bounded also when the file grows after the fstat() */
	while (fgets(line, sizeof(line), f) != NULL) {
		char *value = strchr(line, ' ');

		if ((seen += strlen(line)) > RECORD_MAX) {
			fclose(f);
			return false;
		}
		if (value == NULL)
			continue;
		*value++ = '\0';
		value[strcspn(value, "\n")] = '\0';
		if (strcmp(line, "host") == 0)
			snprintf(o->host, sizeof(o->host), "%s", value);
		else if (strcmp(line, "boot") == 0)
			snprintf(o->boot, sizeof(o->boot), "%s", value);
		else if (strcmp(line, "pidns") == 0)
			snprintf(o->pidns, sizeof(o->pidns), "%s", value);
	}
	fclose(f);
	return true;
}

/* Write the record into the new scratch directory; 0 or an errno. */
static int origin_write(struct phase_ctx *ctx)
{
	struct origin o;
	struct stat st;
	char text[sizeof(o) + 32];
	int fd, len, err = 0;

	origin_here(&o);
	len = snprintf(text, sizeof(text), "host %s\nboot %s\npidns %s\n",
	    o.host, o.boot, o.pidns);
	fd = openat(ctx->scratch_fd, RECORD_NAME,
	    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno;
	if (write_all(fd, text, (size_t)len) != len || fstat(fd, &st) != 0)
		err = errno ? errno : EIO;
	else
		ctx->scratch_record_ino = st.st_ino;
	if (close(fd) != 0 && err == 0)
		err = errno;
	if (err != 0)
		unlinkat(ctx->scratch_fd, RECORD_NAME, 0);
	return err;
}

/* Whether name in the directory open on dir_fd is of the type want. */
static bool is_type(int dir_fd, const char *name, mode_t want)
{
	struct stat st;

	return fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    (st.st_mode & S_IFMT) == want;
}

/* Whether s is one or more decimal digits and nothing else */
static bool all_digits(const char *s)
{
	return *s != '\0' && strspn(s, "0123456789") == strlen(s);
}

/*
 * Whether directory name in the one open on dir_fd holds only the names
 * of small files, and with subdirs, of the subdirectories of files
 * (00000, ...) holding only those
 */
static bool holds_small_files(int dir_fd, const char *name, bool subdirs)
{
	struct dirent *de;
	bool ours = true;
	DIR *d = open_dir(dir_fd, name);

	if (d == NULL)
		return false;
	while (ours && (de = readdir(d)) != NULL) {
		const char *n = de->d_name;

		if (is_dot_entry(n))
			continue;
		if (subdirs && is_files_subdir_name(n) &&
		    is_type(dirfd(d), n, S_IFDIR))
			ours = holds_small_files(dirfd(d), n, false);
		else
			ours = is_small_file_name(n);
	}
	closedir(d);
	return ours;
}

/*
 * An entry that a run of PID pid makes in its scratch directory, of the
 * type it makes it (see phases/files.c, phases/io.c, run/copies.c): its
 * data file Bonnie.PID or Bonnie.PID.NNN, the directories files, dirs and
 * copy.K, the file direct-io-probe, and files.target of older runs.  The
 * record is checked by origin_read().
 */
static bool scratch_entry(int dir_fd, const char *name, long pid)
{
	char data[32];
	size_t len;

	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
	    strcmp(name, RECORD_NAME) == 0)
		return true;
	if (strcmp(name, "files") == 0)
		return is_type(dir_fd, name, S_IFDIR) &&
		    holds_small_files(dir_fd, name, true);
	if (strcmp(name, "dirs") == 0 ||
	    (strncmp(name, "copy.", 5) == 0 && all_digits(name + 5)))
		return is_type(dir_fd, name, S_IFDIR);
	len = (size_t)snprintf(data, sizeof(data), "Bonnie.%ld", pid);
	/*
	 * files.target: what the links of -n N:-1 and -2 led to before they
	 * stayed in each directory of files/; a run of such a clyde that was
	 * killed is still told
	 */
	if (strcmp(name, "files.target") == 0 ||
	    strcmp(name, "direct-io-probe") == 0 ||
	    (strncmp(name, data, len) == 0 && (name[len] == '\0' ||
	    (name[len] == '.' && strlen(name + len + 1) == 3 &&
	    all_digits(name + len + 1)))))
		return is_type(dir_fd, name, S_IFREG);
	return false;
}

/*
 * Whether name in the directory open on dir_fd looks like the scratch
 * directory of a run of PID pid of this user's: a directory (not a link
 * to one), the user's, mode 0700, with its record (a regular file, in
 * *o), holding only what such a run makes.  *changed gets the newest
 * modification time of the directory and its entries: what a live run
 * on another host shows.  A user's own directory of a name like it is
 * passed over in silence.
 */
static bool looks_like_scratch(int dir_fd, const char *name, long pid,
    struct origin *o, time_t *changed)
{
	struct dirent *de;
	struct stat st;
	bool ours = true;
	DIR *d;
	int fd;

	if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 07777) != 0700)
		return false;
	*changed = st.st_mtime;
	fd = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (!origin_read(fd, o) || (d = fdopendir(fd)) == NULL) {
		close(fd);
		return false;
	}
	while (ours && (de = readdir(d)) != NULL) {
		ours = scratch_entry(fd, de->d_name, pid);
		/* not "..": the target's own time is not this run's */
		if (ours && !is_dot_entry(de->d_name) && fstatat(fd, de->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) == 0 && st.st_mtime > *changed)
			*changed = st.st_mtime;
	}
	closedir(d);
	return ours;
}

/* "dir/name", without a doubled slash; false when it does not fit */
static bool join_path(char *out, size_t n, const char *dir, const char *name)
{
	size_t len = strlen(dir);
	int got;

	if (len > 0 && dir[len - 1] == '/')
		got = snprintf(out, n, "%s%s", dir, name);
	else
		got = snprintf(out, n, "%s/%s", dir, name);
	return got >= 0 && (size_t)got < n;
}

/*
 * A scratch directory that changed this recently, made on another host,
 * boot or PID namespace, is taken for a live run's: a run changes its
 * directory at every data file (one a GiB, or --chunks) and small file;
 * one long phase over a slow disk may look idle, and is then named with
 * its age like any other that this run cannot check.
 */
#define LIVE_SECONDS 600
/* the hosts named in the line about live runs of other hosts */
#define LIVE_HOSTS_SHOWN 3

/* "42 s", "17 min", "5 h", "3 days": how long ago t was */
static void age_text(char *out, size_t n, time_t now, time_t t)
{
	long long s = now > t ? (long long)(now - t) : 0;

	if (s < 120)
		snprintf(out, n, "%lld s", s);
	else if (s < 120 * 60)
		snprintf(out, n, "%lld min", s / 60);
	else if (s < 48 * 3600)
		snprintf(out, n, "%lld h", s / 3600);
	else
		snprintf(out, n, "%lld days", s / 86400);
}

/* The runs of other hosts (or namespaces) that look live, for one line. */
struct live_runs {
	unsigned count, hosts;
	char host[LIVE_HOSTS_SHOWN][320];
	char first[PATH_MAX];
	time_t newest;
};

static void live_add(struct live_runs *l, const char *host, const char *path,
    time_t changed)
{
	unsigned i;

	if (l->count++ == 0) {
		snprintf(l->first, sizeof(l->first), "%s", path);
		l->newest = changed;
	} else if (changed > l->newest)
		l->newest = changed;
	for (i = 0; i < l->hosts && i < LIVE_HOSTS_SHOWN; i++)
		if (strcmp(l->host[i], host) == 0)
			return;
	if (l->hosts < LIVE_HOSTS_SHOWN)
		snprintf(l->host[l->hosts], sizeof(l->host[0]), "%s", host);
	l->hosts++;
}

/*
 * One line for every live run of another host: a shared filesystem's
 * other clients are expected, and each would otherwise be named by
 * every run, on every node.
 */
static void live_say(const struct live_runs *l, const char *dir, time_t now)
{
	char age[32], hosts[LIVE_HOSTS_SHOWN * 322 + 32];
	size_t len = 0;
	unsigned i;

	if (l->count == 0)
		return;
	age_text(age, sizeof(age), now, l->newest);
	if (l->count == 1) {
		fprintf(stderr, "clyde: %s is the scratch directory of a run on "
		    "%s, changed %s ago: another run shares this filesystem; "
		    "it is left as it is\n", l->first, l->host[0], age);
		return;
	}
	hosts[0] = '\0';
	for (i = 0; i < l->hosts && i < LIVE_HOSTS_SHOWN; i++)
		len += (size_t)snprintf(hosts + len, sizeof(hosts) - len,
		    "%s%s", i == 0 ? "" : ", ", l->host[i]);
	if (l->hosts > LIVE_HOSTS_SHOWN)
		snprintf(hosts + len, sizeof(hosts) - len, " and %u more",
		    l->hosts - LIVE_HOSTS_SHOWN);
	fprintf(stderr, "clyde: %s holds the scratch directories of %u runs on "
	    "%s, the last changed %s ago: other runs share this filesystem; "
	    "they are left as they are\n", dir, l->count, hosts, age);
}

/*
 * A scratch directory of a run that was killed is reported, never
 * removed: the user decides.  One made on another host, boot or PID
 * namespace is named as such: whether its run still runs cannot be told,
 * only whether it changed lately (live_say()).
 */
void scratch_report_stale(int target_fd, const char *dir)
{
	char path[PATH_MAX], quoted[2 * PATH_MAX], age[32];
	struct live_runs live = { 0 };
	struct origin here, there;
	struct dirent *de;
	time_t now = time(NULL);
	int fd = openat(target_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (d == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	origin_here(&here);
	while ((de = readdir(d)) != NULL) {
		const char *elsewhere = NULL, *host;
		bool other_host, other_boot;
		time_t changed;
		char *end;
		long pid;

		/* clyde.PID.XXXXXX: no other name, nor control characters */
		if (strncmp(de->d_name, "clyde.", 6) != 0 ||
		    !isdigit((unsigned char)de->d_name[6]))
			continue;
		pid = strtol(de->d_name + 6, &end, 10);
		if (*end != '.' || !is_random_name(end + 1, 6) || pid <= 0)
			continue;
		if (!looks_like_scratch(dirfd(d), de->d_name, pid, &there,
		    &changed))
			continue;
		join_path(path, sizeof(path), dir, de->d_name);
		mask_controls(there.host);
		mask_controls(there.boot);
		other_host = strcmp(there.host, here.host) != 0;
		other_boot = !other_host && strcmp(there.boot, here.boot) != 0;
		if (other_host)
			elsewhere = "";
		else if (other_boot)
			elsewhere = " before its last boot (or on another machine "
			    "of that name)";
		else if (strcmp(there.pidns, here.pidns) != 0)
			elsewhere = " in another PID namespace";
		host = there.host[0] != '\0' ? there.host : "an unnamed host";
		/*
		 * lately changed, on another host or in another PID namespace
		 * (a clock ahead of this host's counts as now): a live run's;
		 * one from before the last boot is not
		 */
		if (elsewhere != NULL && !other_boot &&
		    changed + LIVE_SECONDS > now) {
			char who[sizeof(there.host) + 32];

			snprintf(who, sizeof(who), "%s%s", host, other_host ?
			    "" : " (another PID namespace)");
			live_add(&live, who, path, changed);
			continue;
		}
		if (elsewhere != NULL) {
			age_text(age, sizeof(age), now, changed);
			fprintf(stderr, "clyde: %s was made by a run on %s%s, last "
			    "changed %s ago, which this run cannot check; it is "
			    "left as it is\n", path, host, elsewhere, age);
			continue;
		}
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		shell_quote(quoted, sizeof(quoted), path);
		fprintf(stderr, "clyde: %s was left by an earlier run that is no "
		    "longer running; remove it with: rm -rf %s\n", path, quoted);
	}
	closedir(d);
	live_say(&live, dir, now);
}

/*
 * The scratch directory, name (clyde.PID.XXXXXX: the Xs become letters
 * and digits, as mkdtemp() makes them) made in the target's descriptor,
 * mode 0700: not by the path of -d, which mkdtemp() would resolve again
 * after the target was opened.  0 or an errno.
 */
static int make_in_target(int target_fd, char *name, const char *dir,
    char *path, size_t n, void (*trying)(const char *))
{
	char *x = name + strlen(name) - 6;
	uint64_t seed = (uint64_t)now_ns() ^ (uint64_t)getpid() << 32;

	for (int tries = 0; tries < 1000; tries++) {
		random_name_chars(x, 6, &seed);
		/* a mkdir that hangs may still make it: the caller names it */
		join_path(path, n, dir, name);
		if (trying != NULL)
			trying(path);
		if (mkdirat(target_fd, name, 0700) == 0)
			return 0;
		if (errno != EEXIST)
			return errno;
	}
	return EEXIST;
}

/*
 * A target with no room left is said as such: the file that met it
 * (the scratch directory, its record) is clyde's own business, not the
 * user's.  True where err was ENOSPC or EDQUOT and the line is out.
 */
static bool say_target_full(const char *dir, int err)
{
	if (err != ENOSPC && err != EDQUOT)
		return false;
	fprintf(stderr, "clyde: -d %s: the target is %s (%s): there is no "
	    "room to start a run\n", dir,
	    err == ENOSPC ? "full" : "over its quota", strerror(err));
	return true;
}

int scratch_make(struct phase_ctx *ctx, int target_fd, const char *dir,
    char *path, size_t n, void (*trying)(const char *))
{
	char name[64];
	const char *base;
	struct stat st;
	int err;

	/*
	 * The run's own copy of the target's descriptor, the one checked
	 * (setup_check_target()), never -d opened again: the scratch
	 * directory is made and removed through it.
	 */
	ctx->target_fd = fcntl(target_fd, F_DUPFD_CLOEXEC, 0);
	if (ctx->target_fd < 0) {
		fprintf(stderr, "clyde: -d %s: %s\n", dir, strerror(errno));
		return -1;
	}
	/* where a relative -d starts from, whatever directory a phase works in */
	ctx->start_fd = open(".", dir_search_only() | O_DIRECTORY | O_CLOEXEC);
	snprintf(name, sizeof(name), "clyde.%ld.XXXXXX", (long)getpid());
	/* every message names it by its path: the path must fit */
	if (!join_path(path, n, dir, name)) {
		fprintf(stderr, "clyde: -d %s: too long a path: the scratch "
		    "directory %s in it would pass the limit of %zu bytes\n",
		    dir, name, n - 1);
		close(ctx->target_fd);
		ctx->target_fd = -1;
		return -1;
	}
	if ((err = make_in_target(ctx->target_fd, name, dir, path, n,
	    trying)) != 0) {
		if (!say_target_full(dir, err))
			fprintf(stderr, "clyde: -d %s: cannot make the scratch "
			    "directory: %s\n", dir, strerror(err));
		close(ctx->target_fd);
		ctx->target_fd = -1;
		return -1;
	}
	join_path(path, n, dir, name);
	base = strrchr(path, '/');
	ctx->scratch_name = base ? base + 1 : path;
	ctx->scratch_fd = openat(ctx->target_fd, ctx->scratch_name,
	    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (ctx->scratch_fd >= 0 && fstat(ctx->scratch_fd, &st) != 0) {
		close(ctx->scratch_fd);
		ctx->scratch_fd = -1;
	}
	if (ctx->scratch_fd < 0) {
		fprintf(stderr, "clyde: %s: %s\n", path, strerror(errno));
		unlinkat(ctx->target_fd, ctx->scratch_name, AT_REMOVEDIR);
		close(ctx->target_fd);
		ctx->target_fd = -1;
		return -1;
	}
	ctx->scratch_dev = st.st_dev;
	ctx->scratch_ino = st.st_ino;
	err = origin_write(ctx);
	if (err != 0) {
		if (!say_target_full(dir, err))
			fprintf(stderr, "clyde: %s/%s: %s\n", path, RECORD_NAME,
			    strerror(err));
		close(ctx->scratch_fd);
		ctx->scratch_fd = -1;
		unlinkat(ctx->target_fd, ctx->scratch_name, AT_REMOVEDIR);
		close(ctx->target_fd);
		ctx->target_fd = -1;
		return -1;
	}
	return 0;
}

int scratch_remove(struct phase_ctx *ctx, const char *path)
{
	char quoted[2 * PATH_MAX];
	struct stat own, now;
	bool linked;
	int there, err;

	/* the record goes last: until then, the directory says whose it is */
	if (ctx->scratch_fd >= 0 && fstatat(ctx->scratch_fd, RECORD_NAME, &now,
	    AT_SYMLINK_NOFOLLOW) == 0 && now.st_ino == ctx->scratch_record_ino)
		phase_cleanup_failed(ctx, RECORD_NAME, phase_remove(ctx,
		    ctx->scratch_fd, "", RECORD_NAME, 0));
	phase_cleanup_report(ctx);
	/* emptied through its descriptor: is it still in some directory? */
	linked = ctx->scratch_fd >= 0 && fstat(ctx->scratch_fd, &own) == 0 &&
	    own.st_nlink > 0;
	if (ctx->scratch_fd >= 0)
		close(ctx->scratch_fd);
	ctx->scratch_fd = -1;
	/*
	 * Someone moved the directory away, and may have put another in its
	 * place: that one is not removed, and no command names it.
	 */
	there = fstatat(ctx->target_fd, ctx->scratch_name, &now,
	    AT_SYMLINK_NOFOLLOW) == 0 ? 0 : errno;
	if (there == 0 && (now.st_dev != ctx->scratch_dev ||
	    now.st_ino != ctx->scratch_ino)) {
		fprintf(stderr, "clyde: %s is not the directory this run made: "
		    "it was moved away and something else put there, which is "
		    "left as it is%s\n", path, linked ? "; the run's own, "
		    "emptied, is left wherever it was moved" : "");
		return -1;
	}
	if (there == ENOENT && linked) {
		fprintf(stderr, "clyde: the scratch directory was moved away "
		    "from %s; emptied, it is left wherever it was moved\n", path);
		return -1;
	}
	/* already gone is no error: nothing of ours is left */
	err = phase_remove(ctx, ctx->target_fd, NULL, ctx->scratch_name,
	    AT_REMOVEDIR);
	if (err != 0 && err != ENOENT) {
		shell_quote(quoted, sizeof(quoted), path);
		fprintf(stderr, "clyde: cannot remove %s: %s; it is left in "
		    "place, remove it with: rm -rf %s\n", path, strerror(err),
		    quoted);
		return -1;
	}
	return 0;
}
