/*
 * cli/setup.c: privileges and the target directory, checked before anything
 * is created (what the run records of where it ran: cli/describe.c).
 */
#define _DEFAULT_SOURCE         /* setgroups() */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>         /* fstatfs(): the filesystem type */
#include <unistd.h>

#include "phases/phase.h"
#include "cli/setup.h"
#include "lib/rng.h"
#include "lib/sys.h"

#define MIB (1024ULL * 1024)
/* what a small file costs beyond its data, as a rough upper bound */
#define FILE_OVERHEAD 4096ULL

int setup_privileges(const struct config *cfg)
{
	if (cfg->user_name == NULL) {
		if (geteuid() != 0) {
			if (cfg->drop_privileges && setgid(cfg->gid) != 0) {
				fprintf(stderr, "clyde: -g: cannot run as gid %u: %s\n",
				    (unsigned)cfg->gid, strerror(errno));
				return EXIT_CANNOT_START;
			}
			return EXIT_OK;
		}
		/* bonnie++'s rule, for the same reason: a benchmark as root can
		 * destroy data */
		fputs("clyde: You must use the \"-u\" switch when running as root.\n"
		    "Try 'clyde -u nobody -d DIR' (a directory that user may "
		    "write in), or 'clyde --help'.\n", stderr);
		return EXIT_USAGE;
	}
	if (geteuid() == 0 && setgroups(1, &cfg->gid) != 0) {
		fprintf(stderr, "clyde: -u/-g: setgroups: %s\n", strerror(errno));
		return EXIT_CANNOT_START;
	}
	/* the group first: after setuid() it may no longer be allowed */
	if (setgid(cfg->gid) != 0 || setuid(cfg->uid) != 0) {
		fprintf(stderr, "clyde: -u/-g: cannot run as uid %u gid %u: %s\n",
		    (unsigned)cfg->uid, (unsigned)cfg->gid, strerror(errno));
		return EXIT_CANNOT_START;
	}
	/* the drop must be for good: neither root's uid nor its gid comes back */
	if ((cfg->uid != 0 && (setuid(0) == 0 || seteuid(0) == 0)) ||
	    (cfg->uid != 0 && cfg->gid != 0 && (setgid(0) == 0 ||
	    setegid(0) == 0))) {
		fputs("clyde: -u: root could be regained after the drop; "
		    "refusing to run\n", stderr);
		return EXIT_CANNOT_START;
	}
	return EXIT_OK;
}

void setup_announce(const struct config *cfg)
{
	if (!cfg->drop_privileges)
		return;
	if (!cfg->quiet)
		fprintf(stderr, "Using uid:%u, gid:%u.\n", (unsigned)getuid(),
		    (unsigned)getgid());
	/* with -q the table goes to stderr: nothing else may come before it */
	if (getuid() == 0 && !cfg->quiet)
		fputs("clyde: running as root, as -u root asked\n", stderr);
}

int setup_check_seed_file(const struct config *cfg)
{
	const char *why;
	struct rng r;

	if (cfg->seed_file == NULL)
		return EXIT_OK;
	rng_seed(&r, 0);
	if (rng_load_file(&r, cfg->seed_file, &why) != 0) {
		fprintf(stderr, "clyde: -Z %s: %s\nTry 'clyde --help'.\n",
		    cfg->seed_file, why != NULL ? why : strerror(errno));
		return EXIT_USAGE;
	}
	rng_free(&r);
	return EXIT_OK;
}

/*
 * Bytes the run will need at its peak: the data files, the small files
 * or the directories of --dirs (a block each, as ext4 gives one).
 */
static unsigned long long bytes_needed(const struct config *cfg)
{
	unsigned long long io = cfg->file_size_mib * MIB;
	unsigned long long files = 0, avg = 0;
	unsigned long long dirs = ((unsigned long long)cfg->dirs.count_k *
	    FILE_UNIT + 1) * FILE_OVERHEAD;

	if (cfg->files.max_size > 0)
		avg = (unsigned long long)(cfg->files.max_size +
		    cfg->files.min_size) / 2;
	if (cfg->files.count_k > 0)
		files = (unsigned long long)cfg->files.count_k * FILE_UNIT *
		    (avg + (cfg->files.max_size > 0 ? FILE_OVERHEAD : 0));
	/* each set is removed before the next phases; -c copies */
	if (cfg->dirs.count_k > 0 && dirs > files)
		files = dirs;
	return (io > files ? io : files) * cfg->concurrency;
}

/*
 * Inodes the small-file phases need at their peak: the scratch directory
 * and its record (made-by), and for each copy its copy.K (-c), files/, the subdirectories and the
 * files (links too: tmpfs charges each hard link an inode); or the tree
 * of --dirs and its dirs/, whichever is more.
 */
static unsigned long long inodes_needed(const struct config *cfg)
{
	const struct files_spec *fs = &cfg->files;
	unsigned long long per_copy;

	unsigned long long tree = cfg->dirs.count_k > 0 ?
	    (unsigned long long)cfg->dirs.count_k * FILE_UNIT + 1 : 0;

	per_copy = (unsigned long long)fs->count_k * FILE_UNIT + 1 +
	    (fs->dirs > 1 ? fs->dirs : 0);
	/* the small files are gone before the directory phases */
	if (tree > per_copy)
		per_copy = tree;
	per_copy += cfg->concurrency > 1 ? 1 : 0;
	return 2 + per_copy * cfg->concurrency;
}

/*
 * Filesystems of the kernel's own objects: a directory made there is a
 * cgroup or nothing, and files cannot be written.  From statfs(2).
 */
static const struct {
	unsigned long magic;
	const char *name;
} pseudo_fs[] = {
	{ 0x9fa0, "proc" }, { 0x62656572, "sysfs" },
	{ 0x27e0eb, "cgroup" }, { 0x63677270, "cgroup2" },
	{ 0x64626720, "debugfs" }, { 0x74726163, "tracefs" },
	{ 0x73636673, "securityfs" }, { 0x1cd1, "devpts" },
	{ 0xcafe4a11, "bpf" }, { 0x6165676c, "pstore" },
	{ 0xde5e81e4, "efivarfs" }, { 0x62656570, "configfs" },
	{ 0x19800202, "mqueue" }, { 0xf97cff8c, "selinuxfs" },
	{ 0x65735543, "fusectl" }, { 0x42494e4d, "binfmt_misc" },
	{ 0x6e736673, "nsfs" }, { 0x958458f6, "hugetlbfs" },
};

/* The pseudo filesystem of the one open on fd, or NULL. */
static const char *pseudo_fs_name(int fd)
{
	struct statfs sfs;
	size_t i;

	if (fstatfs(fd, &sfs) != 0)
		return NULL;
	for (i = 0; i < sizeof(pseudo_fs) / sizeof(pseudo_fs[0]); i++)
		if ((unsigned long)sfs.f_type == pseudo_fs[i].magic)
			return pseudo_fs[i].name;
	return NULL;
}

static int target_error(const struct config *cfg, const char *why)
{
	fprintf(stderr, "clyde: -d %s: %s\n", cfg->dir, why);
	return EXIT_CANNOT_START;
}

/* The checks of the target, in this order, on its descriptor. */
static int check_target_fd(const struct config *cfg, int fd)
{
	unsigned long long need, avail;
	struct statvfs vfs;
	struct stat st;
	const char *pseudo;
	char why[256];

	if (fstat(fd, &st) != 0)
		return target_error(cfg, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return target_error(cfg, "not a directory");
	if ((pseudo = pseudo_fs_name(fd)) != NULL) {
		snprintf(why, sizeof(why), "on %s, a pseudo filesystem of the "
		    "kernel, not one for files", pseudo);
		return target_error(cfg, why);
	}
	/* access()'s meaning: the real uid's rights, the -u user's after the drop */
	if (faccessat(fd, ".", W_OK | X_OK, 0) != 0) {
		snprintf(why, sizeof(why), "not writable by uid %u: %s",
		    (unsigned)geteuid(), strerror(errno));
		return target_error(cfg, why);
	}
	if (fstatvfs(fd, &vfs) != 0)
		return target_error(cfg, strerror(errno));
	if (vfs.f_flag & ST_RDONLY)
		return target_error(cfg, "read-only filesystem");
	/* some FUSE filesystems report no figures: then there is no check */
	need = bytes_needed(cfg);
	avail = (unsigned long long)vfs.f_bavail * vfs.f_frsize;
	if (vfs.f_blocks != 0 && need > avail) {
		snprintf(why, sizeof(why), "not enough free space: the test needs "
		    "%llu MiB, the filesystem has %llu MiB free",
		    (need + MIB - 1) / MIB, avail / MIB);
		return target_error(cfg, why);
	}
	/* btrfs reports 0 inodes: no figure, no check */
	need = inodes_needed(cfg);
	if (vfs.f_files != 0 && (cfg->files.count_k > 0 ||
	    cfg->dirs.count_k > 0) && need > vfs.f_favail) {
		snprintf(why, sizeof(why), "not enough free inodes: the test needs "
		    "%llu (the files or directories it makes, and the "
		    "scratch directory), the filesystem has %llu", need,
		    (unsigned long long)vfs.f_favail);
		return target_error(cfg, why);
	}
	return EXIT_OK;
}

/*
 * -d is opened once, and every check and the run use that descriptor: a
 * link in its path changed after the open cannot move the run to a
 * directory that was not checked.  O_PATH opens neither a FIFO nor a
 * device (where there is none, O_NONBLOCK keeps a FIFO from holding the
 * open), and without O_DIRECTORY a file is "not a directory", as before.
 */
int setup_check_target(const struct config *cfg, int *target_fd)
{
	int fd = open(cfg->dir, dir_search_only() | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC);
	int rc;

	*target_fd = -1;
	if (fd < 0)
		return target_error(cfg, strerror(errno));
	rc = check_target_fd(cfg, fd);
	if (rc != EXIT_OK)
		close(fd);
	else
		*target_fd = fd;
	return rc;
}

/*
 * Descriptors the measuring process opens beyond those open now, at its
 * peak (counted with ulimit -n on tmpfs, rounded up): the directory the
 * run started in, the target and the scratch directory; those of the
 * family of phases that holds the most open at once (phases/phase.h's
 * descriptors()); the copies of -c, their pipes and their own files.
 */
static unsigned long descriptors_needed(const struct config *cfg)
{
	unsigned long most = 0, more;

	for (size_t i = 0; i < phase_family_count; i++) {
		const struct phase_family *f = phase_families[i];
		const char *fewer;
		unsigned long n;

		if (f->descriptors != NULL &&
		    (n = f->descriptors(cfg, &fewer)) > most)
			most = n;
	}
	more = 3 + most;
	if (cfg->concurrency > 1)
		more += 3UL * cfg->concurrency + 2;
	return more;
}

/* How a run needs fewer: ", or give fewer copies (-c)", and the families'. */
static void say_fewer(const struct config *cfg, char *out, size_t n)
{
	size_t len;

	snprintf(out, n, "%s", cfg->concurrency > 1 ? ", or give fewer "
	    "copies (-c)" : "");
	for (size_t i = 0; i < phase_family_count; i++) {
		const struct phase_family *f = phase_families[i];
		const char *fewer = NULL;

		if (f->descriptors != NULL)
			f->descriptors(cfg, &fewer);
		len = strlen(out);
		if (fewer != NULL && len < n)
			snprintf(out + len, n - len, ", or %s", fewer);
	}
}

int setup_check_descriptors(const struct config *cfg)
{
	struct rlimit rl;
	unsigned long open_now = 0, top = 0, need;
	char fewer[512];
	long fd, scan;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return EXIT_OK;
	/*
	 * A new descriptor takes the lowest free number: the gaps fill first.
	 * Past 65536 the few a run needs always fit.
	 */
	scan = rl.rlim_cur < 65536 ? (long)rl.rlim_cur : 65536;
	for (fd = 0; fd < scan; fd++)
		if (fcntl((int)fd, F_GETFD) >= 0) {
			open_now++;
			top = (unsigned long)fd + 1;
		}
	need = open_now + descriptors_needed(cfg);
	if (need < top)
		need = top;
	if (need <= rl.rlim_cur)
		return EXIT_OK;
	if (rl.rlim_max == RLIM_INFINITY || need <= rl.rlim_max) {
		rl.rlim_cur = need;
		if (setrlimit(RLIMIT_NOFILE, &rl) == 0)
			return EXIT_OK;
	}
	say_fewer(cfg, fewer, sizeof(fewer));
	fprintf(stderr, "clyde: the run needs %lu open files at once, and "
	    "the limit is %llu (ulimit -n): raise it%s\n", need,
	    (unsigned long long)rl.rlim_max, fewer);
	return EXIT_CANNOT_START;
}
