/*
 * unit_config: the option parser (src/core/config.c) against clyde(1),
 * OPTIONS: each option's accepted forms and the configuration they make,
 * its refused forms with exit status 1 and the two lines on standard
 * error that the page gives ("clyde: -s 64x: size not a number (MiB, 0
 * to 1000G)", then "Try 'clyde --help'."), --help and --version.
 *
 * config_parse() is run in this process, argv built for each case,
 * standard output and error caught in a temporary file; it touches
 * nothing else (the target and -Z are checked later, by the run).  -r 0
 * turns the RAM rules off where a case is not about them.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include <unistd.h>

#include "config.h"
#include "tap.h"

static struct config cfg;
static char out[16384], err[4096];

/* fd (1 or 2) into a temporary file until catch_end() reads it into buf */
static FILE *catch_start(int fd, int *saved)
{
	FILE *f = tmpfile();

	fflush(fd == 1 ? stdout : stderr);
	*saved = dup(fd);
	if (f != NULL)
		dup2(fileno(f), fd);
	return f;
}

static void catch_end(FILE *f, int fd, int saved, char *buf, size_t len)
{
	size_t n = 0;

	fflush(fd == 1 ? stdout : stderr);
	dup2(saved, fd);
	close(saved);
	buf[0] = '\0';
	if (f == NULL)
		return;
	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* config_parse() of "clyde" and the NULL-ended arguments; its status */
static int vparse(va_list ap)
{
	static char *argv[64];
	static char words[64][512];
	const char *a;
	int argc = 0, rc, s1, s2;
	FILE *f1, *f2;

	snprintf(words[0], sizeof(words[0]), "clyde");
	argv[argc++] = words[0];
	while ((a = va_arg(ap, const char *)) != NULL && argc < 63) {
		snprintf(words[argc], sizeof(words[argc]), "%s", a);
		argv[argc] = words[argc];
		argc++;
	}
	argv[argc] = NULL;
	/* getopt_long() starts again from the first argument */
	optind = 0;
	f1 = catch_start(1, &s1);
	f2 = catch_start(2, &s2);
	rc = config_parse(&cfg, argc, argv);
	catch_end(f2, 2, s2, err, sizeof(err));
	catch_end(f1, 1, s1, out, sizeof(out));
	return rc;
}

static int parse(const char *first, ...)
{
	va_list ap;
	int rc;

	(void)first;
	va_start(ap, first);
	/* first is the va_list's anchor: "clyde" comes from vparse() */
	rc = vparse(ap);
	va_end(ap);
	return rc;
}
#define P(...) parse("", __VA_ARGS__, (const char *)NULL)

/* the page's two lines: "clyde: " and want in the first, then the hint */
static int says(const char *want)
{
	const char *nl = strchr(err, '\n'), *w = strstr(err, want);

	return nl != NULL && strncmp(err, "clyde: ", 7) == 0 && w != NULL &&
	    w < nl && strcmp(nl + 1, "Try 'clyde --help'.\n") == 0;
}

/* refused: exit status 1, the two lines with want */
#define REFUSED(want, ...) (P(__VA_ARGS__) == EXIT_USAGE && says(want))

static void defaults(void)
{
	char host[HOST_NAME_MAX + 1];

	ok(P("-r", "0") == EXIT_OK && err[0] == '\0' && out[0] == '\0',
	    "clyde -r 0: taken, nothing said");
	ok(cfg.compat == COMPAT_103 && strcmp(cfg.dir, ".") == 0,
	    "defaults: the 1.03 profile, the target '.'");
	ok(cfg.file_size_mib == 300 && cfg.chunk == 8192 && cfg.seeks == 8000 &&
	    cfg.seekers == 3, "-s: 300 MiB, chunk 8k, 8000 seeks, 3 seekers");
	ok(cfg.files.count_k == 16 && cfg.files.max_size == 0 &&
	    cfg.files.min_size == 0 && cfg.files.dirs == 1 &&
	    cfg.files.chunk == 8192, "-n: 16 (16384 files), max 0, min 0, "
	    "1 directory, chunk 8k");
	ok(cfg.per_char && cfg.concurrency == 1 && cfg.runs == 0 &&
	    !cfg.quiet && !cfg.sync_writes && !cfg.direct_io && !cfg.precise &&
	    cfg.progress == PROGRESS_AUTO && cfg.sync == SYNC_NONE &&
	    cfg.json_path == NULL && cfg.dirs.count_k == 0 && cfg.nchunks == 0 &&
	    cfg.nsizes == 0 && cfg.nlatency_over == 0,
	    "the per-char phases, one copy, no -x, -q, -b, -D, --precise, "
	    "--json, --dirs or sweep, --progress=auto");
	ok(cfg.stall_s == 30 && cfg.cleanup_wait_s == 60,
	    "--stall 30 and --cleanup-wait 60 seconds");
	ok(!cfg.drop_privileges && !cfg.seed_given && cfg.seed_file == NULL,
	    "no -u or -g, no seed given");
	gethostname(host, sizeof(host));
	host[HOST_NAME_MAX] = '\0';
	for (char *c = host; *c != '\0'; c++)
		if (*c == ',')
			*c = '_';
	is_str(cfg.machine, host, "-m: the host name (a comma as '_')");
	ok(cfg.argc == 3 && strcmp(cfg.argv[1], "-r") == 0 &&
	    strcmp(cfg.argv[2], "0") == 0, "the command line is kept as given");
	ok(P("--compat=2.00", "-r", "0") == EXIT_OK && cfg.compat == COMPAT_200 &&
	    cfg.seeks == 8192 && cfg.seekers == 5 && cfg.per_char_mib == 3,
	    "--compat=2.00: 8192 seeks, 5 seekers, per-char phases of 3 MiB");
	ok(P("--compat", "1.03", "-r", "0") == EXIT_OK && cfg.compat == COMPAT_103,
	    "--compat 1.03 (a long option's value as the next argument)");
	ok(REFUSED("--compat 2.0: must be 1.03 or 2.00", "--compat=2.0"),
	    "--compat=2.0: refused");
}

/* -s size[:chunk[:seeks[:seekers]]] and the RAM rule */
static void size(void)
{
	ok(P("-r", "0", "-s", "64") == EXIT_OK && cfg.file_size_mib == 64 &&
	    cfg.size_given, "-s 64: 64 MiB");
	ok(P("-r", "0", "--size=1g") == EXIT_OK && cfg.file_size_mib == 1024,
	    "--size=1g: 1024 MiB");
	ok(P("-r", "0", "--size", "2G") == EXIT_OK && cfg.file_size_mib == 2048,
	    "--size 2G: suffixes in either case");
	ok(P("-r", "0", "-s", "1024k") == EXIT_OK && cfg.file_size_mib == 1,
	    "-s 1024k: a whole MiB in KiB");
	ok(P("-r", "0", "-s", "1000g", "-n", "0") == EXIT_OK &&
	    cfg.file_size_mib == 1024000, "-s 1000g, the largest");
	ok(REFUSED("-s 1001g: size out of range (MiB, 0 to 1000G)", "-r", "0",
	    "-s", "1001g"), "-s 1001g: refused (BUGS)");
	ok(REFUSED("-s 1t", "-r", "0", "-s", "1t"),
	    "-s 1t: 1024g, above 1000g, refused");
	ok(REFUSED("-s 1000k: size not a whole number of units", "-r", "0", "-s",
	    "1000k"), "-s 1000k: not a whole MiB, refused");
	ok(P("-r", "0", "-s", "64x") == EXIT_USAGE &&
	    strcmp(err, "clyde: -s 64x: size not a number (MiB, 0 to 1000G)\n"
	    "Try 'clyde --help'.\n") == 0,
	    "-s 64x: the two lines of OPTIONS, word for word");
	ok(REFUSED("-s -1: size must not be negative", "-r", "0", "-s", "-1") &&
	    REFUSED("-s +64: size not a number", "-r", "0", "-s", "+64") &&
	    REFUSED("-s  64: size not a number", "-r", "0", "-s", " 64") &&
	    REFUSED("-s 6 4", "-r", "0", "-s", "6 4"),
	    "-s negative, with a sign, a blank, a blank inside: refused");
	ok(REFUSED("-s : size empty value", "-r", "0", "-s", ""),
	    "-s '': refused");
	ok(P("-r", "0", "-s", "0", "-n", "1") == EXIT_OK && cfg.file_size_mib == 0,
	    "-s 0: the I/O phases skipped");

	ok(P("-r", "0", "-s", "64:4k") == EXIT_OK && cfg.chunk == 4096,
	    "-s 64:4k: chunk 4096");
	ok(P("-r", "0", "-s", "64:256") == EXIT_OK && cfg.chunk == 256 &&
	    P("-r", "0", "-s", "64:1m") == EXIT_OK && cfg.chunk == 1048576 &&
	    P("-r", "0", "-s", "64:1M") == EXIT_OK && cfg.chunk == 1048576,
	    "-s chunk: 256 and 1m, the ends");
	ok(REFUSED("chunk size must be a power of two from 256 to 1M", "-r", "0",
	    "-s", "64:128") &&
	    REFUSED("chunk size must be a power of two", "-r", "0", "-s", "64:2m") &&
	    REFUSED("chunk size must be a power of two", "-r", "0", "-s", "64:3000") &&
	    REFUSED("chunk size must be a power of two", "-r", "0", "-s", "64:4g"),
	    "-s chunk 128, 2m, 3000, 4g: refused");
	ok(REFUSED("-s 64:", "-r", "0", "-s", "64:"),
	    "-s 64: (a chunk left out, no seeks after it): refused");
	ok(P("-r", "0", "-s", "64::1000") == EXIT_OK && cfg.chunk == 8192 &&
	    cfg.seeks == 1000, "-s 64::1000: the chunk left empty keeps 8k");
	ok(P("-r", "0", "-s", "64:4k:2k") == EXIT_OK && cfg.seeks == 2048,
	    "-s 64:4k:2k: 2048 seeks, as in bonnie++ 2.00a");
	ok(P("-r", "0", "-s", "64:8k:16777216:256") == EXIT_OK &&
	    cfg.seeks == 16777216 && cfg.seekers == 256,
	    "-s seeks 16777216 and seekers 256, the largest");
	ok(P("--compat=2.00", "-r", "0", "-s", "64:8k:100") == EXIT_OK &&
	    cfg.seeks == 100 && cfg.seekers == 5,
	    "2.00: seeks given, the seekers stay 5");
	ok(REFUSED("seeks out of range (1 to 16777216", "-r", "0", "-s",
	    "64:8k:16777217") &&
	    REFUSED("seeks out of range", "-r", "0", "-s", "64:8k:0") &&
	    REFUSED("seekers out of range (1 to 256)", "-r", "0", "-s",
	    "64:8k:100:257") &&
	    REFUSED("seekers out of range", "-r", "0", "-s", "64:8k:100:0"),
	    "-s seeks 0 or 16777217, seekers 0 or 257: refused");
	ok(REFUSED("at most size:chunk:seeks:seekers", "-r", "0", "-s",
	    "64:8k:1:1:1"), "-s with five fields: refused");

	/* Without -s: the larger of 300 MiB and twice the RAM, rounded up
	 * to a whole GiB when more than 512 MiB past one */
	ok(P("-r", "100") == EXIT_OK && cfg.file_size_mib == 300 &&
	    cfg.ram_mib == 100 && !cfg.size_given, "-r 100: 300 MiB");
	ok(P("-r", "700") == EXIT_OK && cfg.file_size_mib == 1400,
	    "-r 700: 1400 MiB (376 past 1 GiB: kept)");
	ok(P("-r", "800") == EXIT_OK && cfg.file_size_mib == 2048,
	    "-r 800: 1600 MiB, 576 past 1 GiB: 2048");
	ok(REFUSED("-r 600000: twice the RAM", "-r", "600000"),
	    "-r 600000: twice is above 1000g: refused naming -r");
	ok(REFUSED("-s 100: file size should be double RAM", "-r", "100", "-s",
	    "100"), "-s 100 -r 100: below twice the RAM, refused");
	ok(P("-r", "100", "-s", "200") == EXIT_OK,
	    "-s 200 -r 100: twice the RAM, taken");
	ok(P("--compat=2.00", "-c", "2", "-r", "100", "-s", "100") == EXIT_OK,
	    "-c 2 -s 100 -r 100: size times concurrency is twice the RAM");
	ok(P("-r", "1099511627776", "-s", "1000g", "-n", "0") != EXIT_OK &&
	    says("file size should be double RAM"),
	    "-r 1099511627776, the largest RAM, taken (-s refused by the RAM rule)");
	ok(REFUSED("-r 1099511627777: RAM in MiB out of range", "-r",
	    "1099511627777") && REFUSED("-r 1m", "-r", "1m"),
	    "-r above 1099511627776, or with a suffix: refused");
}

/* -n number[:max[:min[:dirs[:chunk]]]] */
static void files(void)
{
	ok(P("-r", "0", "-n", "0") == EXIT_OK && cfg.files.count_k == 0,
	    "-n 0: the small-file phases skipped");
	ok(P("-r", "0", "-n", "2:4k:1k:10:4k") == EXIT_OK &&
	    cfg.files.count_k == 2 && cfg.files.max_size == 4096 &&
	    cfg.files.min_size == 1024 && cfg.files.dirs == 10 &&
	    cfg.files.chunk == 4096, "-n 2:4k:1k:10:4k: every field");
	ok(P("-r", "0", "-n", "1:-1") == EXIT_OK &&
	    cfg.files.max_size == FILES_HARDLINK, "-n 1:-1: hard links");
	ok(P("-r", "0", "-n", "1:-2::4") == EXIT_OK &&
	    cfg.files.max_size == FILES_SYMLINK && cfg.files.dirs == 4,
	    "-n 1:-2::4: symbolic links in four directories (clyde(1))");
	ok(P("-r", "0", "-n", "1:-2:100") == EXIT_OK &&
	    cfg.files.max_size == FILES_SYMLINK && cfg.files.min_size == 0,
	    "a min with links: taken and ignored");
	ok(P("-r", "0", "-n", "1:1g") == EXIT_OK && cfg.files.max_size == 1L << 30,
	    "-n max 1g, the largest");
	ok(REFUSED("max size out of range", "-r", "0", "-n", "1:2g") &&
	    REFUSED("max size", "-r", "0", "-n", "1:-3"),
	    "-n max 2g or -3: refused");
	ok(REFUSED("min size is larger than max size", "-r", "0", "-n", "1:1k:2k"),
	    "-n min above max: refused");
	ok(P("-r", "0", "-n", "1:4k:2k:4:4k", "-n", "1:5") == EXIT_OK &&
	    cfg.files.max_size == 5 && cfg.files.min_size == 0 &&
	    cfg.files.dirs == 1 && cfg.files.chunk == DEFAULT_CHUNK,
	    "-n twice: the later replaces the earlier whole (no min 2k above "
	    "max 5)");
	ok(P("-r", "0", "-n", "1:0:0:100000") == EXIT_OK &&
	    cfg.files.dirs == 100000 &&
	    REFUSED("directories out of range (1 to 100000)", "-r", "0", "-n",
	    "1:0:0:100001") &&
	    REFUSED("directories out of range", "-r", "0", "-n", "1:0:0:0"),
	    "-n dirs 1 to 100000");
	ok(P("-r", "0", "-n", "1:0:0:1:512") == EXIT_OK && cfg.files.chunk == 512 &&
	    REFUSED("chunk size must be a power of two", "-r", "0", "-n",
	    "1:0:0:1:128"), "-n chunk: 512 taken, 128 refused");
	ok(REFUSED("at most number:max:min:dirs:chunk", "-r", "0", "-n",
	    "1:0:0:1:512:1"), "-n with six fields: refused");
	ok(P("-r", "0", "-n", "32768") == EXIT_OK &&
	    REFUSED("the file names alone would take more than 1 GiB", "-r", "0",
	    "-n", "32769"), "-n 32768 taken, 32769 refused (1 GiB of names)");
	ok(REFUSED("more than half of the", "-r", "1000", "-s", "2000", "-n",
	    "16384"), "-n whose names take half the RAM: refused");
	ok(REFUSED("number of files not a number", "-r", "0", "-n", "x"),
	    "-n x: refused");
	ok(REFUSED("-s 0 and -n 0: nothing to do", "-r", "0", "-s", "0", "-n", "0"),
	    "-s 0 -n 0: nothing to do, refused");
}

static void names_and_numbers(void)
{
	char name[300];

	ok(P("-r", "0", "-m", "box") == EXIT_OK && strcmp(cfg.machine, "box") == 0,
	    "-m box");
	memset(name, 'a', 255);
	name[255] = '\0';
	ok(P("-r", "0", "-m", name) == EXIT_OK && strlen(cfg.machine) == 255,
	    "-m of 255 bytes, the longest");
	name[255] = 'a';
	name[256] = '\0';
	ok(REFUSED("-m: name longer than 255 bytes", "-r", "0", "-m", name),
	    "-m of 256 bytes: refused");
	ok(REFUSED("comma or line break", "-r", "0", "-m", "a,b") &&
	    REFUSED("comma or line break", "-r", "0", "-m", "a\nb") &&
	    REFUSED("control character (0x1b)", "-r", "0", "-m", "a\x1b[1m"),
	    "-m with a comma, a line break, ESC: refused");
	ok(P("-r", "0", "-m", "caf\xc3\xa9") == EXIT_OK,
	    "-m in UTF-8 taken");

	ok(P("-r", "0", "-x", "1") == EXIT_OK && cfg.runs == 1 &&
	    P("-r", "0", "--runs=100000") == EXIT_OK && cfg.runs == 100000,
	    "-x 1 and 100000");
	ok(REFUSED("-x 0: number of runs out of range (1 to 100000)", "-r", "0",
	    "-x", "0") && REFUSED("-x 100001", "-r", "0", "-x", "100001"),
	    "-x 0 and 100001: refused");
	ok(P("-r", "0", "-z", "0") == EXIT_OK && cfg.seed == 0 && cfg.seed_given &&
	    P("-r", "0", "--seed=4294967295") == EXIT_OK && cfg.seed == 4294967295u,
	    "-z 0 and 4294967295");
	ok(REFUSED("-z 4294967296: seed out of range", "-r", "0", "-z",
	    "4294967296"), "-z 4294967296: refused");
	ok(P("-r", "0", "-Z", "/nonexistent/file") == EXIT_OK &&
	    strcmp(cfg.seed_file, "/nonexistent/file") == 0,
	    "-Z FILE: kept, the file read later (by the run)");
	ok(REFUSED("-Z: empty file name", "-r", "0", "-Z", ""), "-Z '': refused");
	ok(REFUSED("give a seed or a random file (-Z), not both", "-r", "0", "-z",
	    "1", "-Z", "f"), "-z with -Z: refused");
	ok(P("-r", "0", "-d", "/nonexistent/dir") == EXIT_OK &&
	    strcmp(cfg.dir, "/nonexistent/dir") == 0,
	    "-d DIR: kept, the target checked later (by the run)");
	ok(REFUSED("-d: empty directory name", "-r", "0", "-d", ""),
	    "-d '': refused");
	ok(P("-r", "0", "-q", "-b", "--precise") == EXIT_OK && cfg.quiet &&
	    cfg.sync_writes && cfg.precise, "-q, -b, --precise");
	ok(P("-r", "0", "--progress=always") == EXIT_OK &&
	    cfg.progress == PROGRESS_ALWAYS &&
	    P("-r", "0", "--progress=never") == EXIT_OK &&
	    cfg.progress == PROGRESS_NEVER &&
	    P("-r", "0", "--progress=auto") == EXIT_OK &&
	    cfg.progress == PROGRESS_AUTO, "--progress=auto|always|never");
	ok(REFUSED("--progress sometimes: must be auto, always or never", "-r",
	    "0", "--progress=sometimes"), "--progress=sometimes: refused");
	ok(P("-r", "0", "--json=run.json") == EXIT_OK &&
	    strcmp(cfg.json_path, "run.json") == 0 &&
	    P("-r", "0", "--json=-") == EXIT_OK && strcmp(cfg.json_path, "-") == 0,
	    "--json=FILE and --json=-");
	ok(REFUSED("--json: empty file name", "-r", "0", "--json="),
	    "--json=: refused");
	ok(P("-r", "0", "--stall=0", "--cleanup-wait=86400") == EXIT_OK &&
	    cfg.stall_s == 0 && cfg.cleanup_wait_s == 86400,
	    "--stall=0 and --cleanup-wait=86400");
	ok(REFUSED("--stall 86401", "-r", "0", "--stall=86401") &&
	    REFUSED("--cleanup-wait 1m", "-r", "0", "--cleanup-wait=1m"),
	    "--stall=86401, --cleanup-wait=1m: refused");
	ok(P("-r", "0", "--shift=1000000") == EXIT_OK && cfg.shift == 1000000 &&
	    cfg.shift_given && REFUSED("--shift 1000001", "-r", "0",
	    "--shift=1000001"), "--shift up to 1000000");
}

/* -u user[:group] and -g group: the names of every system's root */
static void users(void)
{
	ok(P("-r", "0", "-u", "root") == EXIT_OK && cfg.uid == 0 && cfg.gid == 0 &&
	    cfg.drop_privileges, "-u root: user 0, its group 0");
	ok(P("-r", "0", "-u", "0") == EXIT_OK && cfg.uid == 0,
	    "-u 0: a number");
	ok(P("-r", "0", "-u", "root:0") == EXIT_OK && cfg.gid == 0 &&
	    P("-r", "0", "-u", "root", "-g", "0") == EXIT_OK && cfg.gid == 0,
	    "-u root:0 and -u root -g 0");
	ok(P("-r", "0", "-g", "0") == EXIT_OK && cfg.gid == 0 &&
	    cfg.drop_privileges, "-g 0 alone");
	ok(REFUSED("the group is given twice", "-r", "0", "-u", "root:0", "-g",
	    "0"), "-u USER:GROUP with -g: refused");
	ok(REFUSED("no group after the colon", "-r", "0", "-u", "root:") &&
	    REFUSED("more than one colon", "-r", "0", "-u", "root:0:0") &&
	    REFUSED("no user name", "-r", "0", "-u", ":0"),
	    "-u root:, root:0:0, :0: refused");
	ok(REFUSED("no such user", "-r", "0", "-u", "no-such-user-of-clyde") &&
	    REFUSED("no such group", "-r", "0", "-g", "no-such-group-of-clyde"),
	    "a user or group that does not exist: refused");
	ok(REFUSED("no password entry for this number", "-r", "0", "-u",
	    "3999999999") && P("-r", "0", "-u", "3999999999:0") == EXIT_OK &&
	    cfg.uid == 3999999999u, "a user number without an entry needs its "
	    "group");
	ok(REFUSED("-u 0: given twice", "-r", "0", "-u", "root", "-u", "0"),
	    "-u twice: refused");
}

/* the options of the 2.00 profile: -f SIZE, -D, -c */
static void profile_200(void)
{
	ok(P("-r", "0", "-f") == EXIT_OK && !cfg.per_char,
	    "-f: the per-char phases skipped");
	ok(REFUSED("-f 20: a per-char size is only for --compat=2.00", "-r", "0",
	    "-f20"), "1.03: -f20 refused");
	ok(P("--compat=2.00", "-r", "0", "-s", "64", "-f20") == EXIT_OK &&
	    cfg.per_char && cfg.per_char_mib == 20,
	    "2.00: -f20, per-char phases of 20 MiB");
	ok(P("--compat=2.00", "-r", "0", "-s", "64", "--fast=1m") == EXIT_OK &&
	    cfg.per_char_mib == 1 &&
	    P("--compat=2.00", "-r", "0", "-s", "64", "-f1024k") == EXIT_OK &&
	    cfg.per_char_mib == 1, "2.00: --fast=1m and -f1024k, 1 MiB");
	ok(P("--compat=2.00", "-r", "0", "-s", "64", "-f0") == EXIT_OK &&
	    !cfg.per_char, "2.00: -f0 skips them, as -f");
	ok(P("--compat=2.00", "-r", "0", "-s", "64", "-f100") == EXIT_OK &&
	    cfg.per_char_mib == 64 && cfg.per_char_asked_mib == 100,
	    "2.00: -f100 on a 64 MiB file: cut to the file");
	ok(REFUSED("-f 1000k", "--compat=2.00", "-r", "0", "-f1000k"),
	    "2.00: -f1000k, no whole MiB: refused");
	ok(REFUSED("20: unexpected argument (a value for -f must be attached: "
	    "-f20, --fast=20)", "--compat=2.00", "-r", "0", "-f", "20"),
	    "-f 20: a stray argument, with the hint");
	ok(P("--compat=2.00", "-r", "0", "-D") == EXIT_OK && cfg.direct_io,
	    "2.00: -D");
	ok(REFUSED("-D: only with --compat=2.00", "-r", "0", "-D"),
	    "1.03: -D refused");
	ok(P("--compat=2.00", "-r", "0", "-c", "200") == EXIT_OK &&
	    cfg.concurrency == 200, "2.00: -c 200, the most");
	ok(REFUSED("-c 0: concurrency out of range (1 to 200)", "--compat=2.00",
	    "-r", "0", "-c", "0") && REFUSED("-c 201", "--compat=2.00", "-r", "0",
	    "-c", "201"), "-c 0 and 201: refused");
	ok(REFUSED("-c 2: only with --compat=2.00", "-r", "0", "-c", "2"),
	    "1.03: -c refused");
}

/* -p, -y */
static void semaphores(void)
{
	ok(P("-r", "0", "-p", "4") == EXIT_OK && cfg.sync == SYNC_CREATE &&
	    cfg.sync_procs == 4, "-p 4: make the semaphore for 4 runs");
	ok(P("-r", "0", "-p", "-1") == EXIT_OK && cfg.sync == SYNC_REMOVE,
	    "-p -1: remove it");
	ok(P("-r", "0", "-p", "1000") == EXIT_OK &&
	    REFUSED("-p 1001: processes out of range (1 to 1000, or -1)", "-r",
	    "0", "-p", "1001") && REFUSED("-p 0", "-r", "0", "-p", "0") &&
	    REFUSED("-p -2", "-r", "0", "-p", "-2"), "-p 1 to 1000, or -1");
	ok(P("-r", "0", "-y", "s") == EXIT_OK && cfg.sync == SYNC_SEMAPHORE &&
	    P("-r", "0", "--sync-with=p") == EXIT_OK && cfg.sync == SYNC_PROMPT,
	    "-y s and -y p");
	ok(REFUSED("-y x: must be s (semaphore) or p (prompt)", "-r", "0", "-y",
	    "x"), "-y x: refused");
	ok(REFUSED("give -p or -y, not both", "-r", "0", "-p", "4", "-y", "s") &&
	    REFUSED("give -p or -y, not both", "-r", "0", "-y", "s", "-p", "4"),
	    "-p with -y: refused, either way round");
	ok(REFUSED("-y s: serves one run; not with -x 2", "-r", "0", "-y", "s",
	    "-x", "2"), "-y s -x 2: refused as the page says");
	ok(REFUSED("-y s: waits before bonnie++'s phases alone", "-r", "0", "-y",
	    "s", "--dirs=1"), "-y s with --dirs: refused");
	ok(REFUSED("-y s: serves one pass", "-r", "0", "-s", "64", "-y", "s",
	    "--chunks=4k,8k"), "-y s with a --chunks sweep: refused");
}

/* --quick, --chunks, --sizes, --latency-over, --dirs */
static void sweeps(void)
{
	ok(P("--quick") == EXIT_OK && cfg.quick && cfg.file_size_mib == 512 &&
	    cfg.ram_mib == 0 && cfg.precise && cfg.files.count_k == 16,
	    "--quick: 512 MiB, 16384 files, the RAM rules off, --precise");
	ok(P("--quick", "-r", "100") == EXIT_OK && cfg.ram_mib == 100 &&
	    P("--quick", "-s", "64", "-r", "0") == EXIT_OK &&
	    cfg.file_size_mib == 64, "--quick with -r, with -s");

	ok(P("-r", "0", "-s", "64", "--chunks=4k,64k,1m") == EXIT_OK &&
	    cfg.nchunks == 3 && cfg.chunks[0] == 4096 && cfg.chunks[1] == 65536 &&
	    cfg.chunks[2] == 1048576 && cfg.chunk == 4096,
	    "--chunks=4k,64k,1m: in the order given, the first is -s's chunk");
	ok(P("-r", "0", "-s", "64", "--chunks=512,4k..64k") == EXIT_OK &&
	    cfg.nchunks == 6 && cfg.chunks[0] == 512 && cfg.chunks[1] == 4096 &&
	    cfg.chunks[5] == 65536, "--chunks=512,4k..64k: a range of doublings");
	ok(P("-r", "0", "-s", "16", "--chunks=256..16m") == EXIT_OK &&
	    cfg.nchunks == 17, "--chunks=256..16m: 17 sizes, 16m the largest");
	ok(REFUSED("--chunks: an empty list of chunk sizes", "-r", "0", "-s", "64",
	    "--chunks=") &&
	    REFUSED("an empty chunk size", "-r", "0", "-s", "64", "--chunks=4k,,8k") &&
	    REFUSED("a chunk size is given twice", "-r", "0", "-s", "64",
	    "--chunks=4k,4k") &&
	    REFUSED("a range goes from the smaller size up", "-r", "0", "-s", "64",
	    "--chunks=64k..4k"),
	    "--chunks empty, an empty size, a size twice, a range down: refused");
	ok(REFUSED("a chunk size must be a power of two from 256 to 16m", "-r",
	    "0", "-s", "64", "--chunks=128") &&
	    REFUSED("power of two", "-r", "0", "-s", "64", "--chunks=32m") &&
	    REFUSED("power of two", "-r", "0", "-s", "64", "--chunks=3k"),
	    "--chunks=128, 32m, 3k: refused");
	ok(REFUSED("the chunk is given twice", "-r", "0", "-s", "64:4k",
	    "--chunks=4k,8k") &&
	    REFUSED("-s 0 skips the phases", "-r", "0", "-s", "0", "--chunks=4k"),
	    "--chunks with -s's chunk, or with -s 0: refused");
	ok(REFUSED("a chunk size is larger than the file", "-r", "0", "-s", "8",
	    "--chunks=16m"), "--chunks larger than the file: refused");

	ok(P("-r", "0", "-s", ":4k:500", "--sizes=1m,4m,16m") == EXIT_OK &&
	    cfg.nsizes == 3 && cfg.sizes_mib[0] == 1 && cfg.sizes_mib[2] == 16 &&
	    cfg.file_size_mib == 16 && cfg.chunk == 4096 && cfg.seeks == 500,
	    "-s :4k:500 --sizes=1m,4m,16m: three sizes, -s's the largest");
	ok(P("-r", "0", "--sizes=1m..1g") == EXIT_OK && cfg.nsizes == 11 &&
	    cfg.sizes_mib[10] == 1024, "--sizes=1m..1g: eleven doublings");
	ok(P("-r", "0", "--sizes=4,2") == EXIT_OK && cfg.sizes_mib[0] == 4,
	    "--sizes in MiB without a suffix, in the order given");
	ok(REFUSED("the file size is given twice", "-r", "0", "-s", "64",
	    "--sizes=1m,4m"), "--sizes with -s's size: refused");
	ok(REFUSED("an empty size goes with --sizes only", "-r", "0", "-s", ":4k"),
	    "-s :4k without --sizes: refused");
	ok(REFUSED("a file size must be whole MiB from 1m to 1000g", "-r", "0",
	    "--sizes=0,4") && REFUSED("whole MiB", "-r", "0", "--sizes=1001g") &&
	    REFUSED("whole MiB", "-r", "0", "--sizes=1000k"),
	    "--sizes 0, 1001g, 1000k: refused");
	ok(REFUSED("more than 32 file sizes", "-r", "0", "--sizes=1,2,3,4,5,6,7,"
	    "8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,"
	    "31,32,33"), "--sizes of 33 sizes: refused");
	ok(REFUSED("are more than 64 points", "-r", "0", "--sizes=16m..256m",
	    "--chunks=256..16m"), "--sizes by --chunks above 64 points: refused");
	ok(REFUSED("file size 1M should be double RAM", "-r", "2",
	    "--sizes=1m,8m"), "--sizes: the RAM rule holds for the smallest");
	ok(REFUSED("larger than the smallest file of --sizes", "-r", "0",
	    "--sizes=1m,64m", "--chunks=4m"),
	    "--chunks larger than the smallest --sizes: refused");

	ok(P("-r", "0", "--latency-over=50ms,500ms") == EXIT_OK &&
	    cfg.nlatency_over == 2 && cfg.latency_over_ns[0] == 50000000 &&
	    cfg.latency_over_ns[1] == 500000000, "--latency-over=50ms,500ms, in ns");
	ok(P("-r", "0", "--latency-over=1us,2,86400s") == EXIT_OK &&
	    cfg.latency_over_ns[0] == 1000 && cfg.latency_over_ns[1] == 2000000000 &&
	    cfg.latency_over_ns[2] == 86400000000000ULL,
	    "--latency-over 1us, 2 (seconds), 86400s: the ends");
	ok(REFUSED("from 1us to 1 day", "-r", "0", "--latency-over=999ns") &&
	    REFUSED("from 1us to 1 day", "-r", "0", "--latency-over=86401s") &&
	    REFUSED("from 1us to 1 day", "-r", "0", "--latency-over=5x"),
	    "--latency-over 999ns, 86401s, 5x: refused");
	ok(REFUSED("more than 8 thresholds", "-r", "0",
	    "--latency-over=1ms,2ms,3ms,4ms,5ms,6ms,7ms,8ms,9ms") &&
	    REFUSED("a threshold is given twice", "-r", "0",
	    "--latency-over=1ms,1000us"),
	    "--latency-over: nine, or one twice (1ms, 1000us): refused");

	ok(P("-r", "0", "--dirs=4:2:8") == EXIT_OK && cfg.dirs.count_k == 4 &&
	    cfg.dirs.depth == 2 && cfg.dirs.fanout == 8 && !cfg.dirs.shared,
	    "--dirs=4:2:8");
	ok(P("-r", "0", "--dirs=4::8") == EXIT_OK && cfg.dirs.depth == 1 &&
	    cfg.dirs.fanout == 8 && P("-r", "0", "--dirs=1") == EXIT_OK &&
	    cfg.dirs.depth == 1 && cfg.dirs.fanout == 10,
	    "--dirs: empty fields keep depth 1, fanout 10");
	ok(P("-r", "0", "--dirs=4:3:8", "--dirs=2") == EXIT_OK &&
	    cfg.dirs.count_k == 2 && cfg.dirs.depth == 1 &&
	    cfg.dirs.fanout == 10, "--dirs twice: the later replaces the earlier "
	    "whole");
	ok(P("-r", "0", "--dirs=1m") == EXIT_OK && cfg.dirs.count_k == 1024,
	    "--dirs=1m: a suffix m multiplies by 1024");
	ok(P("-r", "0", "--dirs=1:64:65536") == EXIT_OK &&
	    REFUSED("depth out of range (1 to 64)", "-r", "0", "--dirs=1:65") &&
	    REFUSED("depth out of range", "-r", "0", "--dirs=1:0") &&
	    REFUSED("fanout out of range (1 to 65536)", "-r", "0",
	    "--dirs=1:2:65537"), "--dirs depth 1 to 64, fanout 1 to 65536");
	ok(P("-r", "0", "-s", "0", "-n", "0", "--dirs=1") == EXIT_OK,
	    "-s 0 -n 0 --dirs: the directory phases alone");
	ok(P("-r", "0", "--dirs=1", "--dirs-shared") == EXIT_OK && cfg.dirs.shared &&
	    REFUSED("--dirs-shared: shares the tree of --dirs", "-r", "0",
	    "--dirs-shared"), "--dirs-shared: with --dirs only");
}

static void help_and_errors(void)
{
	char want[128];

	ok(P("--help") == CONFIG_HELP && strncmp(out, "usage: clyde ", 13) == 0 &&
	    strstr(out, "--latency-over=LIST") != NULL && err[0] == '\0',
	    "--help: CONFIG_HELP, the usage and options on standard output");
	snprintf(want, sizeof(want), "clyde %s\n", clyde_version);
	ok(P("--version") == CONFIG_VERSION && strcmp(out, want) == 0 &&
	    err[0] == '\0',
	    "--version: CONFIG_VERSION, 'clyde VERSION' on standard output");
	ok(P("--bogus") == EXIT_USAGE && strstr(err, "--bogus") != NULL &&
	    strstr(err, "Try 'clyde --help'.\n") != NULL && out[0] == '\0',
	    "an unknown option: exit status 1, named, the hint");
	ok(P("--sise=64") == EXIT_USAGE &&
	    strstr(err, "Did you mean --size? Try 'clyde --help'.\n") != NULL,
	    "--sise: the nearest option named");
	ok(P("-k") == EXIT_USAGE && strstr(err, "invalid option") != NULL,
	    "an unknown short option: exit status 1");
	ok(P("-s") == EXIT_USAGE && strstr(err, "requires an argument") != NULL,
	    "-s without its value: exit status 1");
	ok(REFUSED("clyde: stray: unexpected argument", "-r", "0", "stray"),
	    "a stray argument: refused, named");
	ok(P("-r", "0", "--size", "64") == EXIT_OK && cfg.file_size_mib == 64 &&
	    P("-r", "0", "--size=64") == EXIT_OK && cfg.file_size_mib == 64,
	    "--name value and --name=value");
	ok(P("-r", "0", "-s64", "-n0") == EXIT_OK && cfg.file_size_mib == 64 &&
	    cfg.files.count_k == 0, "short options with attached values");
}

int main(void)
{
	defaults();
	size();
	files();
	names_and_numbers();
	users();
	profile_200();
	semaphores();
	sweeps();
	help_and_errors();
	return tap_done();
}
