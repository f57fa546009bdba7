/*
 * out/too_fast.c: see out/too_fast.h.  A phase's time grows with what it
 * is given (the file phases with -s's size, the seeks with their count,
 * the small-file phases with -n's), so the run's own times say how much
 * more each needs; the aim is twice bonnie++'s 0.5 s, so that a run a
 * little faster than this one is still measured.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "out/too_fast.h"

#define AIM_NS (2 * MIN_TIME_NS)
/* what -s and -n take (clyde(1), OPTIONS) */
#define SEEKS_MOST (1u << 24)
#define FILES_K_MOST (1u << 20)

/* The factor that brings the slowest too-fast phase of [from, to) to
 * AIM_NS; 0 when none was too fast (or its time is not known). */
static double factor(const struct result *res, int from, int to)
{
	double f = 0;
	int ph;

	for (ph = from; ph < to; ph++) {
		int64_t ns = res->phase[ph].elapsed_ns;

		if (res->cell[ph].status != CELL_TOO_FAST || ns <= 0)
			continue;
		if ((double)AIM_NS / (double)ns > f)
			f = (double)AIM_NS / (double)ns;
	}
	return f;
}

static uint64_t pow2_at_least(double v)
{
	uint64_t p = 1;

	while ((double)p < v && p < (UINT64_C(1) << 62))
		p <<= 1;
	return p;
}

/* -s's size as it takes one: "2g" for whole GiB, MiB otherwise */
static void put_mib(char *out, size_t n, uint64_t mib)
{
	if (mib >= 1024 && mib % 1024 == 0)
		snprintf(out, n, "%" PRIu64 "g", mib / 1024);
	else
		snprintf(out, n, "%" PRIu64, mib);
}

/* "-s 2g::24000": the user's own -s, with the size and seeks needed */
static void put_size_opt(char *out, size_t n, const struct config *cfg,
    uint64_t mib, unsigned seeks)
{
	bool c200 = cfg->compat == COMPAT_200;
	bool own_seekers = cfg->seekers != (c200 ? SEEKERS_200 : SEEKERS_103);
	bool own_seeks = seeks != (c200 ? SEEKS_200 : SEEKS_103);
	char size[32], f[96];

	put_mib(size, sizeof(size), mib);
	snprintf(f, sizeof(f), "-s %s", size);
	if (cfg->chunk != DEFAULT_CHUNK || own_seeks || own_seekers)
		snprintf(f + strlen(f), sizeof(f) - strlen(f), ":");
	if (cfg->chunk != DEFAULT_CHUNK)
		snprintf(f + strlen(f), sizeof(f) - strlen(f), "%u", cfg->chunk);
	if (own_seeks || own_seekers)
		snprintf(f + strlen(f), sizeof(f) - strlen(f), ":%u", seeks);
	if (own_seekers)
		snprintf(f + strlen(f), sizeof(f) - strlen(f), ":%u",
		    cfg->seekers);
	snprintf(out, n, "%s", f);
}

/* "-n 64:4096:1024:4": the user's own -n, with the count needed */
static void put_files_opt(char *out, size_t n, const struct files_spec *fs,
    uint64_t count_k)
{
	char f[96];

	snprintf(f, sizeof(f), "-n %" PRIu64, count_k);
	if (fs->max_size != 0 || fs->dirs != 1 || fs->chunk != DEFAULT_CHUNK)
		snprintf(f + strlen(f), sizeof(f) - strlen(f), ":%ld:%ld:%u",
		    fs->max_size, fs->min_size, fs->dirs);
	if (fs->chunk != DEFAULT_CHUNK)
		snprintf(f + strlen(f), sizeof(f) - strlen(f), ":%u", fs->chunk);
	snprintf(out, n, "%s", f);
}

/*
 * Whether files_k x 1024 small files (of every copy) fit in what the
 * target has free: an inode each, and their data (the mean of -n's sizes;
 * the large file is gone by then).
 */
static bool files_fit(const struct config *cfg, uint64_t files_k,
    uint64_t copies, const struct too_fast_room *room)
{
	const struct files_spec *fs = &cfg->files;
	double files = (double)files_k * FILE_UNIT * (double)copies;
	double mean = fs->max_size > 0 ?
	    ((double)fs->max_size + (double)fs->min_size) / 2 : 0;

	if (room->free_inodes != UINT64_MAX &&
	    files + fs->dirs * (double)copies + 16 > (double)room->free_inodes)
		return false;
	return room->free_mib == UINT64_MAX ||
	    files * mean / (1024 * 1024) <= (double)room->free_mib;
}

void too_fast_hint(FILE *out, const struct config *cfg,
    const struct result *res, const struct too_fast_room *room)
{
	double fio = factor(res, PH_PUTC, PH_SEEKS);
	double fseek = factor(res, PH_SEEKS, PH_SEEKS + 1);
	double ffiles = factor(res, PH_FIRST_FILE, PH_BONNIE_COUNT);
	char opts[160] = "", part[96], why[320] = "", f[32];
	uint64_t mib = cfg->file_size_mib, files_k = 0, want_k = 0;
	uint64_t copies = cfg->concurrency ? cfg->concurrency : 1;
	unsigned seeks = cfg->seeks, fast = 0;
	int ph;

	for (ph = 0; ph < PH_BONNIE_COUNT; ph++)
		if (res->cell[ph].status == CELL_TOO_FAST)
			fast++;
	if (fast == 0 || (fio == 0 && fseek == 0 && ffiles == 0))
		return;
	if (fio > 0)
		mib = pow2_at_least((double)cfg->file_size_mib * fio);
	if (fseek > 0) {
		double sk = (double)cfg->seeks * fseek;

		seeks = sk > SEEKS_MOST ? SEEKS_MOST :
		    (unsigned)((sk + 999) / 1000) * 1000;
	}
	if (fio > 0 || fseek > 0)
		put_size_opt(opts, sizeof(opts), cfg, mib, seeks);
	if (ffiles > 0) {
		want_k = pow2_at_least((double)cfg->files.count_k * ffiles);
		if (want_k > FILES_K_MOST)
			want_k = FILES_K_MOST;
		/* as many as the target holds, halving from what is wanted */
		for (files_k = want_k; files_k > cfg->files.count_k &&
		    !files_fit(cfg, files_k, copies, room); files_k /= 2)
			;
	}
	/* the file of every copy must fit in what the target has free */
	if (fio > 0 && room->free_mib != UINT64_MAX &&
	    mib * copies > room->free_mib) {
		put_mib(f, sizeof(f), room->free_mib);
		snprintf(why, sizeof(why), "; but that file is more than the "
		    "%s%s the target has free: there, only --precise shows the "
		    "rates of the file phases", f, strchr(f, 'g') ? "" : " MiB");
	}
	fprintf(out, "clyde: %u phase%s ran under 0.5 s and print%s +++++ "
	    "(too fast to measure)", fast, fast == 1 ? "" : "s",
	    fast == 1 ? "s" : "");
	if (ffiles == 0 || files_k == want_k) {
		if (ffiles > 0) {
			put_files_opt(part, sizeof(part), &cfg->files, files_k);
			snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts),
			    "%s%s", opts[0] != '\0' ? " " : "", part);
		}
		fprintf(out, "; from this run's times, %s in place of its own "
		    "would make each last about 1 s%s\n", opts, why[0] != '\0' ?
		    why : " (or --precise prints their rates as measured)");
		return;
	}
	/* the small files that would last 1 s do not fit */
	fputs("; from this run's times, ", out);
	if (opts[0] != '\0')
		fprintf(out, "%s in place of its own would make the large-file "
		    "phases last about 1 s%s, and ", opts, why);
	if (room->free_inodes != UINT64_MAX && (double)want_k * FILE_UNIT *
	    (double)copies > (double)room->free_inodes)
		fprintf(out, "the small-file phases would need -n %" PRIu64
		    ", more files than the target holds (%" PRIu64 " inodes "
		    "free)", want_k, room->free_inodes);
	else
		fprintf(out, "the small-file phases would need -n %" PRIu64
		    ", more data than the target holds (%" PRIu64 " MiB free)",
		    want_k, room->free_mib);
	if (files_k > cfg->files.count_k) {
		put_files_opt(part, sizeof(part), &cfg->files, files_k);
		fprintf(out, ", of which %s is the most", part);
	}
	fputs("; --precise prints their rates as measured\n", out);
}
