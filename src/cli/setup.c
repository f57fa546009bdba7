/*
 * cli/setup.c: privileges and the target directory, checked before anything
 * is created.
 */
#define _DEFAULT_SOURCE         /* setgroups() */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>   /* major(), minor() */
#include <sys/utsname.h>
#include <sys/vfs.h>         /* fstatfs(): the filesystem type */
#include <unistd.h>

#include "phases/dirs.h"
#include "phases/io.h"
#include "cli/setup.h"
#include "lib/fdio.h"
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
 * and its record (made-by), and for each copy its copy.K (-c), files/, the subdirectories, the
 * files (links too: tmpfs charges each hard link an inode) and, with
 * links, files.target; or the tree of --dirs and its dirs/, whichever
 * is more.
 */
static unsigned long long inodes_needed(const struct config *cfg)
{
	const struct files_spec *fs = &cfg->files;
	unsigned long long per_copy;

	unsigned long long tree = cfg->dirs.count_k > 0 ?
	    (unsigned long long)cfg->dirs.count_k * FILE_UNIT + 1 : 0;

	per_copy = (unsigned long long)fs->count_k * FILE_UNIT + 1 +
	    (fs->dirs > 1 ? fs->dirs : 0) + (fs->max_size < 0 ? 1 : 0);
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
 * run started in, the target and the scratch directory; in the I/O
 * phases each data file (a seeker opens them all; 2.00's parent reopens
 * its one); in the small-file phases the files directory, a
 * subdirectory, the file and, with -b, the directory synced, each of
 * -n's directories held open (with --shift, those of the rank read from
 * too); in the directory phases
 * dirs/, a directory read and each directory of the tree that has
 * children, held open; the copies of -c, their pipes and their own files.
 */
static unsigned long descriptors_needed(const struct config *cfg)
{
	unsigned long io = phase_io_file_count(cfg), files = 0, dirs = 0, more;

	if (io > 0 && cfg->compat == COMPAT_200)
		io++;
	if (cfg->files.count_k > 0)
		files = 3 + (cfg->files.dirs > 1 ? (unsigned long)cfg->files.dirs *
		    (cfg->shift != 0 ? 2 : 1) + cfg->sync_writes : 0);
	if (cfg->dirs.count_k > 0)
		dirs = 2 + phase_dirs_descriptors(cfg);
	if (files < dirs)
		files = dirs;
	more = 3 + (io > files ? io : files);
	if (cfg->concurrency > 1)
		more += 3UL * cfg->concurrency + 2;
	return more;
}

int setup_check_descriptors(const struct config *cfg)
{
	struct rlimit rl;
	unsigned long open_now = 0, top = 0, need;
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
	fprintf(stderr, "clyde: the run needs %lu open files at once, and "
	    "the limit is %llu (ulimit -n): raise it%s%s%s\n", need,
	    (unsigned long long)rl.rlim_max,
	    cfg->concurrency > 1 ? ", or give fewer copies (-c)" : "",
	    cfg->files.count_k > 0 && cfg->files.dirs > 1 ? ", or fewer "
	    "directories in -n (each is held open)" : "",
	    phase_dirs_descriptors(cfg) > 0 ? ", or a --dirs tree with fewer "
	    "directories that have children (each is held open)" : "");
	return EXIT_CANNOT_START;
}

/* mountinfo escapes blanks and backslashes as \ooo */
static void unescape_octal(char *s)
{
	char *out = s;

	for (; *s != '\0'; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
			    (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* true when dir is mount or below it */
static bool is_under(const char *dir, const char *mount)
{
	size_t n = strlen(mount);

	if (strcmp(mount, "/") == 0)
		return true;
	return strncmp(dir, mount, n) == 0 && (dir[n] == '/' || dir[n] == '\0');
}

/*
 * The mount that holds the target, from /proc/self/mountinfo: statfs()
 * calls every FUSE mount "fuseblk", mountinfo has "fuse.sshfs".  Its
 * device number "major:minor" into dev[ndev].
 */
static void describe_mount(const char *dir, struct run_info *run, char *dev,
    size_t ndev)
{
	char line[4096], best_mount[PATH_MAX] = "";
	FILE *f = fopen("/proc/self/mountinfo", "r");

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *field[6], *rest, *fstype, *source, *super, *save = NULL;
		int i;

		rest = strstr(line, " - ");
		if (rest == NULL)
			continue;
		*rest = '\0';
		for (i = 0; i < 6; i++)
			if ((field[i] = strtok_r(i ? NULL : line, " ", &save)) == NULL)
				break;
		if (i < 6)
			continue;
		save = NULL;
		fstype = strtok_r(rest + 3, " \n", &save);
		source = strtok_r(NULL, " \n", &save);
		super = strtok_r(NULL, " \n", &save);
		unescape_octal(field[4]);
		if (fstype == NULL || !is_under(dir, field[4]) ||
		    strlen(field[4]) < strlen(best_mount))
			continue;
		/* a later mount on the same point hides the earlier one */
		snprintf(best_mount, sizeof(best_mount), "%s", field[4]);
		snprintf(dev, ndev, "%s", field[2]);
		snprintf(run->fstype, sizeof(run->fstype), "%s", fstype);
		snprintf(run->mount_source, sizeof(run->mount_source), "%s",
		    source ? source : "");
		if (source != NULL)
			unescape_octal(run->mount_source);
		snprintf(run->mount_options, sizeof(run->mount_options), "%s%s%s",
		    field[5], super ? "," : "", super ? super : "");
	}
	fclose(f);
}

/* The first line of a sysfs file, its blanks after it dropped; "" none. */
static void read_sys(char *out, size_t n, const char *dir, const char *file)
{
	char path[PATH_MAX];
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (read_small_file(path, out, n) <= 0)
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	for (len = strlen(out); len > 0 && out[len - 1] == ' '; len--)
		out[len - 1] = '\0';
}

/* The scheduler in use: the one in brackets, or the only one named. */
static void scheduler_in_use(char *list)
{
	char *open = strchr(list, '['), *close;

	if (open != NULL && (close = strchr(open, ']')) != NULL) {
		*close = '\0';
		memmove(list, open + 1, strlen(open + 1) + 1);
	} else if (strchr(list, ' ') != NULL) {
		list[0] = '\0';
	}
}

/*
 * The block device "major:minor" (from mountinfo), or the mount source
 * when that is a block device (btrfs shows a device number of its own),
 * from /sys/dev/block: its name, its disk, the disk's model and
 * scheduler, its read-only flag.  False when there is none.
 */
static bool describe_device(const char *dev, const char *source,
    struct device_info *d)
{
	char link[64], path[PATH_MAX], disk[PATH_MAX], ro[8], *slash;
	struct stat st;

	snprintf(link, sizeof(link), "/sys/dev/block/%s", dev);
	if (realpath(link, path) == NULL) {
		if (source[0] != '/' || stat(source, &st) != 0 ||
		    !S_ISBLK(st.st_mode))
			return false;
		snprintf(link, sizeof(link), "/sys/dev/block/%u:%u",
		    major(st.st_rdev), minor(st.st_rdev));
		if (realpath(link, path) == NULL)
			return false;
	}
	snprintf(d->name, sizeof(d->name), "%s", strrchr(path, '/') + 1);
	/* a partition's directory is inside its disk's */
	snprintf(disk, sizeof(disk), "%s", path);
	read_sys(ro, sizeof(ro), path, "partition");
	if (ro[0] != '\0' && (slash = strrchr(disk, '/')) != NULL)
		*slash = '\0';
	snprintf(d->disk, sizeof(d->disk), "%s", strrchr(disk, '/') + 1);
	read_sys(d->model, sizeof(d->model), disk, "device/model");
	read_sys(d->scheduler, sizeof(d->scheduler), disk, "queue/scheduler");
	scheduler_in_use(d->scheduler);
	read_sys(ro, sizeof(ro), path, "ro");
	d->read_only = ro[0] == '0' ? 0 : ro[0] == '1' ? 1 : -1;
	return true;
}

/* The first "model name" of /proc/cpuinfo into cpu[n]; "" none. */
static void cpu_model(char *cpu, size_t n)
{
	char line[512], *colon;
	FILE *f = fopen("/proc/cpuinfo", "r");

	cpu[0] = '\0';
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "model name", 10) != 0 ||
		    (colon = strchr(line, ':')) == NULL)
			continue;
		colon += strspn(colon + 1, " \t") + 1;
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(cpu, n, "%s", colon);
		break;
	}
	fclose(f);
}

/* The machine, and the block device under the target (dev, source). */
static void describe_host(struct host_info *h, const char *dev,
    const char *source)
{
	struct utsname u;

	if (uname(&u) == 0) {
		snprintf(h->name, sizeof(h->name), "%s", u.nodename);
		snprintf(h->kernel, sizeof(h->kernel), "%s", u.release);
	}
	cpu_model(h->cpu, sizeof(h->cpu));
	h->ram_mib = phys_ram_mib();
	h->has_device = dev[0] != '\0' && describe_device(dev, source,
	    &h->device);
}

/* The command line into argv, each argument NUL-terminated; or none. */
static void keep_argv(const struct config *cfg, struct run_info *run)
{
	size_t used = 0, len;
	int i;

	for (i = 0; cfg->argv != NULL && i < cfg->argc; i++) {
		len = strlen(cfg->argv[i]) + 1;
		if (len > sizeof(run->argv) - used) {
			run->argc = 0;
			return;
		}
		memcpy(run->argv + used, cfg->argv[i], len);
		used += len;
		run->argc++;
	}
}

/*
 * The path of the directory open on fd as the kernel tells it, into
 * real[n]: where it is now, not where -d leads now.  False without /proc.
 */
static bool fd_path(int fd, char *real, size_t n)
{
	char link[64];
	ssize_t len;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, real, n - 1);
	if (len <= 0 || real[0] != '/')
		return false;
	real[len] = '\0';
	return true;
}

void setup_describe_run(const struct config *cfg, int target_fd,
    struct run_info *run)
{
	char real[PATH_MAX], dev[32] = "";
	time_t now = time(NULL);
	struct tm tm;

	memset(run, 0, sizeof(*run));
	run->compat = cfg->compat;
	if (gmtime_r(&now, &tm) != NULL)
		strftime(run->started, sizeof(run->started), "%Y-%m-%dT%H:%M:%SZ",
		    &tm);
	snprintf(run->target, sizeof(run->target), "%s", cfg->dir);
	if (fd_path(target_fd, real, sizeof(real)))
		describe_mount(real, run, dev, sizeof(dev));
	describe_host(&run->host, dev, run->mount_source);
	run->has_host = true;
	keep_argv(cfg, run);
	run->sync_writes = cfg->sync_writes;
	run->direct_io = cfg->direct_io;
	run->precise = cfg->precise;
	run->shift = cfg->shift;
	run->ram_mib = cfg->ram_mib;
	run->per_char_mib = cfg->per_char ? cfg->per_char_mib : 0;
}
