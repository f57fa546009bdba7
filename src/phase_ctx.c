/*
 * phase_ctx.c: how a phase reports a failure, and what cleanup could not
 * remove.  See phase_ctx.h.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "phase_ctx.h"

int phase_fail(struct phase_ctx *ctx, const char *path, const char *op, int err)
{
	const char *sep = err ? ": " : "", *why = err ? strerror(err) : "";

	/*
	 * A stop signal interrupted the call, or the file size limit sent
	 * SIGXFSZ and the write got EFBIG: the run stops, it did not fail.
	 */
	if (phase_stop && (err == EINTR ||
	    (err == EFBIG && stop_signal() == SIGXFSZ)))
		return PHASE_STOPPED;
	if (path != NULL)
		snprintf(ctx->error, sizeof(ctx->error), "%s: %s/%s: %s%s%s",
		    ctx->label, ctx->scratch_name, path, op, sep, why);
	else
		snprintf(ctx->error, sizeof(ctx->error), "%s: %s: %s%s%s",
		    ctx->label, ctx->scratch_name, op, sep, why);
	return PHASE_ERROR;
}

void phase_cleanup_failed(struct phase_ctx *ctx, const char *path, int err)
{
	if (err == ENOENT)
		return;
	if (ctx->cleanup_failures++ == 0)
		snprintf(ctx->cleanup_error, sizeof(ctx->cleanup_error),
		    "cannot remove %s/%s: %s", ctx->scratch_name, path,
		    strerror(err));
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
