/*
 * cli/describe.c: where and how the run happens, for its record (the
 * JSON, and the context lines of clyde report): the time, the target's
 * mount (filesystem, source, options) from /proc/self/mountinfo, the
 * host, the block device under the target from /sys, the command line
 * and the options that shape the figures.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>   /* major(), minor() */
#include <sys/utsname.h>
#include <unistd.h>

#include "cli/describe.h"
#include "lib/fdio.h"
#include "lib/sys.h"

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
