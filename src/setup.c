/*
 * setup.c: privileges and the target directory, checked before anything
 * is created.
 */
#define _DEFAULT_SOURCE         /* setgroups() */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "setup.h"
#include "util.h"

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
		    "Try 'clyde --help'.\n", stderr);
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
	if (cfg->uid != 0 && (setuid(0) == 0 || seteuid(0) == 0)) {
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
	if (getuid() == 0)
		fputs("clyde: running as root, as -u root asked\n", stderr);
}

int setup_check_seed_file(const struct config *cfg)
{
	struct rng r;

	if (cfg->seed_file == NULL)
		return EXIT_OK;
	rng_seed(&r, 0);
	if (rng_load_file(&r, cfg->seed_file) != 0) {
		fprintf(stderr, "clyde: -Z %s: %s\nTry 'clyde --help'.\n",
		    cfg->seed_file, errno == EINVAL ?
		    "not a file of 32-bit numbers" : strerror(errno));
		return EXIT_USAGE;
	}
	rng_free(&r);
	return EXIT_OK;
}

/* Bytes the run will need at its peak: the data files or the small files. */
static unsigned long long bytes_needed(const struct config *cfg)
{
	unsigned long long io = cfg->file_size_mib * MIB;
	unsigned long long files = 0, avg = 0;

	if (cfg->files.max_size > 0)
		avg = (unsigned long long)(cfg->files.max_size +
		    cfg->files.min_size) / 2;
	if (cfg->files.count_k > 0)
		files = (unsigned long long)cfg->files.count_k * FILE_UNIT *
		    (avg + (cfg->files.max_size > 0 ? FILE_OVERHEAD : 0));
	/* the data files are removed before the small-file phases */
	return io > files ? io : files;
}

static int target_error(const struct config *cfg, const char *why)
{
	fprintf(stderr, "clyde: -d %s: %s\n", cfg->dir, why);
	return EXIT_CANNOT_START;
}

int setup_check_target(const struct config *cfg)
{
	unsigned long long need, avail;
	struct statvfs vfs;
	struct stat st;
	char why[256];

	if (stat(cfg->dir, &st) != 0)
		return target_error(cfg, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return target_error(cfg, "not a directory");
	if (access(cfg->dir, W_OK | X_OK) != 0) {
		snprintf(why, sizeof(why), "not writable by uid %u: %s",
		    (unsigned)geteuid(), strerror(errno));
		return target_error(cfg, why);
	}
	if (statvfs(cfg->dir, &vfs) != 0)
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
	if (vfs.f_files != 0 && cfg->files.count_k > 0 &&
	    (unsigned long long)cfg->files.count_k * FILE_UNIT > vfs.f_favail) {
		snprintf(why, sizeof(why), "not enough free inodes: the test needs "
		    "%llu, the filesystem has %llu",
		    (unsigned long long)cfg->files.count_k * FILE_UNIT,
		    (unsigned long long)vfs.f_favail);
		return target_error(cfg, why);
	}
	return EXIT_OK;
}
