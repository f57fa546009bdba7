/*
 * phases/ctx.c: how a phase reports a failure, and what cleanup could not
 * remove.  See phases/ctx.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "phases/ctx.h"
#include "lib/sys.h"
#include "lib/text.h"

/* Cleanup's retries: until when, and whether the wait was said. */
static int64_t retry_until_ns;
static unsigned retry_wait_s;
static unsigned signals_before;
static bool retry_said;
static bool retry_failed;
static bool again_said;

/*
 * A failed rmdir's errno: EEXIST is a directory that is not empty, as AFS
 * says it (POSIX allows EEXIST or ENOTEMPTY), and reads as ENOTEMPTY.
 */
static int rmdir_errno(int err)
{
	return err == EEXIST ? ENOTEMPTY : err;
}

int phase_fail(struct phase_ctx *ctx, const char *path, const char *op, int err)
{
	return phase_fail_in(ctx, ctx->scratch_name, path, op, err);
}

int phase_fail_in(struct phase_ctx *ctx, const char *dir, const char *path,
    const char *op, int err)
{
	const char *sep, *why;

	if (op != NULL && strcmp(op, "rmdir") == 0)
		err = rmdir_errno(err);
	sep = err ? ": " : "";
	why = err ? strerror(err) : "";

	/*
	 * A stop signal interrupted the call, or the file size limit sent
	 * SIGXFSZ and the write got EFBIG: the run stops, it did not fail.
	 */
	if (phase_stop && (err == EINTR ||
	    (err == EFBIG && stop_signal() == SIGXFSZ)))
		return PHASE_STOPPED;
	if (path != NULL)
		snprintf(ctx->error, sizeof(ctx->error), "%s: %s/%s: %s%s%s",
		    ctx->label, dir, path, op, sep, why);
	else
		snprintf(ctx->error, sizeof(ctx->error), "%s: %s: %s%s%s",
		    ctx->label, dir, op, sep, why);
	/* a name found in the target may hold an escape or a newline */
	mask_controls(ctx->error);
	return PHASE_ERROR;
}

void phase_cleanup_failed(struct phase_ctx *ctx, const char *path, int err)
{
	if (err == 0 || err == ENOENT)
		return;
	if (ctx->cleanup_failures++ == 0)
		snprintf(ctx->cleanup_error, sizeof(ctx->cleanup_error),
		    "cannot remove %s/%s: %s", ctx->scratch_name, path,
		    strerror(err));
	mask_controls(ctx->cleanup_error);
}

void phase_cleanup_left(struct phase_ctx *ctx, const char *path,
    const char *why)
{
	if (ctx->cleanup_failures++ == 0)
		snprintf(ctx->cleanup_error, sizeof(ctx->cleanup_error),
		    "%s/%s: %s; left in place", ctx->scratch_name, path, why);
	mask_controls(ctx->cleanup_error);
}

void phase_cleanup_report(struct phase_ctx *ctx)
{
	if (ctx->cleanup_failures == 0)
		return;
	if (ctx->cleanup_failures > 1)
		fprintf(stderr, "clyde: %s (and %u more)\n", ctx->cleanup_error,
		    ctx->cleanup_failures - 1);
	else
		fprintf(stderr, "clyde: %s\n", ctx->cleanup_error);
	ctx->cleanup_failures = 0;
}

void phase_cleanup_begin(unsigned wait_s)
{
	retry_wait_s = wait_s;
	retry_until_ns = now_ns() + (int64_t)wait_s * 1000000000;
	signals_before = stop_signal_count();
	retry_said = false;
	retry_failed = false;
	again_said = false;
}

void phase_cleanup_end(void)
{
	if (retry_said && !retry_failed)
		fputs("clyde: cleanup: the filesystem answers again\n", stderr);
	retry_wait_s = 0;
	retry_said = false;
}

/* Errors a network filesystem recovers from when its server is back. */
static bool passing(int err)
{
	return err == ENOTCONN || err == EIO || err == ETIMEDOUT ||
	    err == ESTALE || err == EAGAIN;
}

/*
 * name by its path from the target: the directory descriptor is stale.
 * The target is opened again by -d (a relative one from where the run
 * started, not from where a phase works); below it each directory of
 * the path, the scratch directory's name and dir, is opened by its single
 * name, a symbolic link not followed: a link put in place of one of them
 * leads nowhere.
 */
static int remove_by_path(const struct phase_ctx *ctx, const char *dir,
    const char *name, int flags)
{
	char path[PATH_MAX];
	int fd, n, err = 0;

	n = snprintf(path, sizeof(path), "%s%s%s", dir != NULL ?
	    ctx->scratch_name : "", dir != NULL && dir[0] != '\0' ? "/" : "",
	    dir != NULL ? dir : "");
	if (n < 0 || (size_t)n >= sizeof(path))
		return ENAMETOOLONG;
	fd = openat(ctx->start_fd, ctx->cfg->dir, dir_search_only() |
	    O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	for (char *part = path, *next; part != NULL && fd >= 0; part = next) {
		int sub;

		if ((next = strchr(part, '/')) != NULL)
			*next++ = '\0';
		if (*part == '\0')
			continue;
		/*
		 * Read, not O_PATH: an NFS client revalidates a name it is
		 * to open, and finds an emptied export's directory gone
		 * (ENOENT), where O_PATH took its stale cache and the next
		 * name then failed with ESTALE.  clyde's own directories are
		 * readable.
		 */
		sub = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		err = sub < 0 ? errno : 0;
		close(fd);
		fd = sub;
	}
	if (fd < 0)
		return err;
	err = unlinkat(fd, name, flags) == 0 ? 0 : errno;
	close(fd);
	return err;
}

/* name for messages: inside the scratch directory, or in the target */
static const char *shown_path(const struct phase_ctx *ctx, const char *dir,
    const char *name, char *out, size_t n)
{
	snprintf(out, n, "%s%s%s%s%s", dir != NULL ? ctx->scratch_name : "",
	    dir != NULL && dir[0] != '\0' ? "/" : "", dir != NULL ? dir : "",
	    dir != NULL ? "/" : "", name);
	return out;
}

/* The cleanup's wait has run out, or a stop signal came: it fails. */
static bool retry_over(void)
{
	if (now_ns() < retry_until_ns && stop_signal_count() <= signals_before)
		return false;
	retry_failed = true;
	return true;
}

int phase_remove(struct phase_ctx *ctx, int dirfd, const char *dir,
    const char *name, int flags)
{
	long delay_ms = 100;
	int err;

	for (;;) {
		if (unlinkat(dirfd, name, flags) == 0)
			return 0;
		err = errno;
		if (err == ESTALE || err == EBADF)
			err = remove_by_path(ctx, dir, name, flags);
		if (flags & AT_REMOVEDIR)
			err = rmdir_errno(err);
		if (err == 0 || !passing(err))
			return err;
		if (retry_over())
			return err;
		if (!retry_said) {
			char path[PATH_MAX];

			fprintf(stderr, "clyde: cleanup: cannot remove %s: "
			    "%s; waiting up to %u s for the filesystem (SIGINT stops)\n",
			    shown_path(ctx, dir, name, path, sizeof(path)),
			    strerror(err), retry_wait_s);
			retry_said = true;
		}
		nanosleep(&(struct timespec){ delay_ms / 1000,
		    delay_ms % 1000 * 1000000 }, NULL);
		if (delay_ms < 5000)
			delay_ms *= 2;
	}
}

/* how long phase_stale_again() looks again, and how often */
#define STALE_WAIT_NS (5 * 1000000000LL)
#define STALE_STEP_NS 100000000L

bool phase_stale_again(int64_t *until, int err)
{
	int64_t now = now_ns();
	int saved = errno;

	if (err != 0 && err != ENOENT && err != ESTALE)
		return false;
	if (*until == 0)
		*until = now + STALE_WAIT_NS;
	/* a stop waits too: the answer is then the whole check's */
	if (now >= *until)
		return false;
	nanosleep(&(struct timespec){ 0, STALE_STEP_NS }, NULL);
	errno = saved;
	return true;
}

bool phase_cleanup_again(struct phase_ctx *ctx, const char *dir,
    const char *name, unsigned ours)
{
	if (!retry_said)
		return false;
	if (retry_over())
		return false;
	if (!again_said) {
		char path[PATH_MAX];

		fprintf(stderr, "clyde: cleanup: %s still holds %u of clyde's "
		    "names that the filesystem had answered were gone; removing "
		    "them again\n", shown_path(ctx, dir, name, path,
		    sizeof(path)), ours);
		again_said = true;
	}
	return true;
}
