/*
 * scratch.c: the one directory a run makes in the target,
 * clyde.PID.XXXXXX, and the report of those that killed runs left.
 */
/* O_PATH is Linux's: glibc shows it with _GNU_SOURCE */
#define _GNU_SOURCE
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
#include <unistd.h>

#include "phase_ctx.h"
#include "scratch.h"

/* a directory opened only to work in it: Linux's O_PATH, POSIX's O_SEARCH */
#if defined(O_PATH)
#define DIR_SEARCH_ONLY O_PATH
#elif defined(O_SEARCH)
#define DIR_SEARCH_ONLY O_SEARCH
#else
#define DIR_SEARCH_ONLY O_RDONLY
#endif

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

/* path in single quotes for a shell command: ' becomes '\'' */
void scratch_quote(char *out, size_t n, const char *path)
{
	size_t k = 0;

	if (n < 3) {
		if (n > 0)
			out[0] = '\0';
		return;
	}
	out[k++] = '\'';
	for (; *path != '\0' && k + 5 < n; path++) {
		if (*path == '\'') {
			memcpy(out + k, "'\\''", 4);
			k += 4;
		} else {
			out[k++] = *path;
		}
	}
	out[k++] = '\'';
	out[k] = '\0';
}

/*
 * A scratch directory of a run that was killed is reported, never
 * removed: the user decides.
 */
void scratch_report_stale(const char *dir)
{
	char path[PATH_MAX], quoted[2 * PATH_MAX];
	struct dirent *de;
	DIR *d;

	d = opendir(dir);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		char *end;
		long pid;

		if (strncmp(de->d_name, "clyde.", 6) != 0)
			continue;
		pid = strtol(de->d_name + 6, &end, 10);
		if (end == de->d_name + 6 || *end != '.' || strlen(end) != 7 ||
		    pid <= 0)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		join_path(path, sizeof(path), dir, de->d_name);
		scratch_quote(quoted, sizeof(quoted), path);
		fprintf(stderr, "clyde: %s was left by an earlier run that is no "
		    "longer running; remove it with: rm -rf %s\n", path, quoted);
	}
	closedir(d);
}

int scratch_make(struct phase_ctx *ctx, const char *dir,
    char *path, size_t n)
{
	char name[64];
	const char *base;
	struct stat st;

	/*
	 * The target's descriptor: the scratch directory is removed through
	 * it.  Writable and searchable is enough (mode 0333): no read right
	 * is asked for where the system can do without.
	 */
	ctx->target_fd = open(dir, DIR_SEARCH_ONLY | O_DIRECTORY | O_CLOEXEC);
	if (ctx->target_fd < 0) {
		fprintf(stderr, "clyde: -d %s: %s\n", dir, strerror(errno));
		return -1;
	}
	snprintf(name, sizeof(name), "clyde.%ld.XXXXXX", (long)getpid());
	/* mkdtemp() would take a cut template: say why, not "Invalid argument" */
	if (!join_path(path, n, dir, name)) {
		fprintf(stderr, "clyde: -d %s: too long a path: the scratch "
		    "directory %s in it would pass the limit of %zu bytes\n",
		    dir, name, n - 1);
		close(ctx->target_fd);
		ctx->target_fd = -1;
		return -1;
	}
	if (mkdtemp(path) == NULL) {
		fprintf(stderr, "clyde: -d %s: cannot make the scratch directory: "
		    "%s\n", dir, strerror(errno));
		close(ctx->target_fd);
		ctx->target_fd = -1;
		return -1;
	}
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
	return 0;
}

int scratch_remove(struct phase_ctx *ctx, const char *path)
{
	char quoted[2 * PATH_MAX];
	struct stat own, now;
	bool linked;
	int there, err;

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
		scratch_quote(quoted, sizeof(quoted), path);
		fprintf(stderr, "clyde: cannot remove %s: %s; it is left in "
		    "place, remove it with: rm -rf %s\n", path, strerror(err),
		    quoted);
		return -1;
	}
	return 0;
}
