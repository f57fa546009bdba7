/*
 * fuzz_options: a libFuzzer target for the option parser
 * (src/core/config.c).  The input is a command line: its arguments
 * separated by NUL bytes, after "clyde".  config_parse() may take it
 * (EXIT_OK), refuse it (EXIT_USAGE, a line on stderr), or print --help or
 * --version (CONFIG_HELP, CONFIG_VERSION): any other result aborts, and
 * so does a configuration taken that breaks a rule of clyde(1), OPTIONS
 * (a chunk that is no power of two from 256 to 16m, a size above 1000g,
 * more seekers, copies or points than allowed, a -m name with a comma).
 * config_describe() is run on what was taken, as clyde-mpi does.
 *
 * config_parse() reads nothing but the user and group databases (-u,
 * -g): they are a fixed two-entry table here (root and nobody), so that
 * no input makes the target read a file.  Its messages go to stdout and
 * stderr, which tests/fuzz/fuzz.sh closes (-close_fd_mask=3).
 *
 * Built and run by tests/fuzz/fuzz.sh (make fuzz) with clang's
 * -fsanitize=fuzzer,address,undefined.
 */
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The user and group databases, in place of the C library's files. */
static char root_name[] = "root", nobody_name[] = "nobody", none[] = "";
static struct passwd users[] = {
	{ root_name, none, 0, 0, none, none, none },
	{ nobody_name, none, 65534, 65534, none, none, none },
};
static struct group groups[] = {
	{ root_name, none, 0, NULL },
	{ nobody_name, none, 65534, NULL },
};

struct passwd *getpwnam(const char *name)
{
	for (size_t i = 0; i < 2; i++)
		if (strcmp(users[i].pw_name, name) == 0)
			return &users[i];
	errno = 0;
	return NULL;
}

struct passwd *getpwuid(uid_t uid)
{
	for (size_t i = 0; i < 2; i++)
		if (users[i].pw_uid == uid)
			return &users[i];
	errno = 0;
	return NULL;
}

struct group *getgrnam(const char *name)
{
	for (size_t i = 0; i < 2; i++)
		if (strcmp(groups[i].gr_name, name) == 0)
			return &groups[i];
	errno = 0;
	return NULL;
}

#define ARGS_MAX 32

static int power_of_two(unsigned v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

/* what clyde(1) promises of a configuration taken */
static void check(const struct config *c)
{
	char text[4096];
	unsigned i;

	if (c->file_size_mib > 1024000 || !power_of_two(c->chunk) ||
	    c->chunk < 256 || c->chunk > 16 * 1024 * 1024 ||
	    c->seekers < 1 || c->seekers > 256 || c->seeks < 1 ||
	    c->seeks > 16777216 || c->concurrency < 1 || c->concurrency > 200 ||
	    (c->compat == COMPAT_103 && (c->concurrency != 1 || c->direct_io)))
		abort();
	if (c->nchunks > CHUNKS_MAX || c->nsizes > SIZES_MAX ||
	    config_points(c) > POINTS_MAX ||
	    c->nlatency_over > LATENCY_OVER_MAX)
		abort();
	for (i = 0; i < c->nchunks; i++)
		if (!power_of_two(c->chunks[i]) || c->chunks[i] < 256 ||
		    c->chunks[i] > 16 * 1024 * 1024)
			abort();
	for (i = 0; i < c->nsizes; i++)
		if (c->sizes_mib[i] < 1 || c->sizes_mib[i] > c->file_size_mib)
			abort();
	if (c->files.dirs < 1 || c->files.dirs > 100000 ||
	    !power_of_two(c->files.chunk) || c->files.chunk < 256 ||
	    c->files.chunk > 1024 * 1024 ||
	    (c->files.max_size >= 0 && c->files.min_size > c->files.max_size))
		abort();
	if (c->dirs.depth < 1 || c->dirs.depth > 64 || c->dirs.fanout < 1 ||
	    c->dirs.fanout > 65536 || (c->dirs.shared && c->dirs.count_k == 0))
		abort();
	if (strlen(c->machine) > NAME_MAX_LEN ||
	    strpbrk(c->machine, ",\n\r") != NULL)
		abort();
	if (c->file_size_mib == 0 && c->files.count_k == 0 &&
	    c->dirs.count_k == 0)
		abort();
	(void)config_describe(c, text, sizeof(text));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf[4096 + 1];
	static char prog[] = "clyde";
	char *argv[ARGS_MAX + 2];
	struct config cfg;
	int argc = 0, rc;
	size_t i;

	if (size > sizeof(buf) - 1)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = prog;
	/* the arguments between NUL bytes; an empty one counts too */
	for (i = 0; i <= size && argc <= ARGS_MAX; ) {
		argv[argc++] = buf + i;
		i += strlen(buf + i) + 1;
	}
	argv[argc] = NULL;
	/* getopt_long() from the first argument again, its state reset */
	optind = 0;
	rc = config_parse(&cfg, argc, argv);
	if (rc == EXIT_OK)
		check(&cfg);
	else if (rc != EXIT_USAGE && rc != CONFIG_HELP && rc != CONFIG_VERSION)
		abort();
	return 0;
}
