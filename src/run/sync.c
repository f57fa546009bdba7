/*
 * run/sync.c: SysV semaphores as bonnie++ uses them.  One semaphore per phase
 * starts at N; each process takes one and then waits for zero, so none
 * starts the phase before all N have reached it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <unistd.h>

#include "core/stop.h"
#include "run/sync.h"
#include "core/test_hooks.h"

#define SEM_KEY 4711            /* bonnie++'s SemKey */

/* The caller defines this union (POSIX says so for semctl's 4th argument). */
union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
};

static int sem_id = -1;

/* bonnie++'s key; the tests give a key of their own (core/test_hooks.h). */
static long sem_key(void)
{
	return test_hook_sem_key(SEM_KEY);
}

/*
 * The set that has the key: its id, or -1 with errno set; *ds filled
 * and *known true when its owner and size can be read.
 */
static int find_set(struct semid_ds *ds, bool *known)
{
	union semun arg = { .buf = ds };
	int id = semget((key_t)sem_key(), 0, 0);

	*known = id >= 0 && semctl(id, 0, IPC_STAT, arg) == 0;
	return id;
}

/*
 * A set of another size under the key is not one that -p makes (one
 * semaphore per phase, as bonnie++'s): say so, and what opt leaves.
 */
static int wrong_size(const char *opt, const struct semid_ds *ds,
    const char *what_now)
{
	fprintf(stderr, "clyde: %s: the semaphore set with key %ld has %lu "
	    "semaphores, not %d: it is not one that -p makes; %s\n", opt,
	    sem_key(), (unsigned long)ds->sem_nsems, PH_BONNIE_COUNT, what_now);
	return EXIT_CANNOT_START;
}

static int remove_set(void)
{
	struct semid_ds ds;
	bool known;
	int id = find_set(&ds, &known);

	if (id < 0) {
		fprintf(stderr, "clyde: -p -1: no semaphore set with key %ld to "
		    "remove%s%s\n", sem_key(), errno == ENOENT ? "" : ": ",
		    errno == ENOENT ? "" : strerror(errno));
		return EXIT_CANNOT_START;
	}
	if (known && ds.sem_nsems != PH_BONNIE_COUNT)
		return wrong_size("-p -1", &ds, "it is left in place");
	if (semctl(id, 0, IPC_RMID) == 0)
		return EXIT_OK;
	if (errno == EPERM && known)
		fprintf(stderr, "clyde: -p -1: the semaphore set with key %ld "
		    "belongs to uid %u: only that user or root can remove it\n",
		    sem_key(), (unsigned)ds.sem_perm.uid);
	else
		fprintf(stderr, "clyde: -p -1: cannot remove the semaphore set "
		    "with key %ld: %s\n", sem_key(), strerror(errno));
	return EXIT_CANNOT_START;
}

int sync_setup(const struct config *cfg)
{
	struct semid_ds ds;
	union semun arg;
	bool known;
	int id, i, err;

	if (cfg->sync == SYNC_REMOVE)
		return remove_set();
	id = semget((key_t)sem_key(), PH_BONNIE_COUNT, IPC_CREAT | IPC_EXCL | 0666);
	if (id < 0) {
		err = errno;
		if (err == EEXIST && find_set(&ds, &known) >= 0 && known &&
		    ds.sem_nsems != PH_BONNIE_COUNT)
			return wrong_size("-p", &ds, "remove it with ipcrm -S "
			    "if nothing uses it");
		fprintf(stderr, "clyde: -p %u: cannot make the semaphore set "
		    "with key %ld: %s%s\n", cfg->sync_procs, sem_key(),
		    strerror(err), err == EEXIST ?
		    " (remove the old one with -p -1)" : "");
		return EXIT_CANNOT_START;
	}
	arg.val = (int)cfg->sync_procs;
	for (i = 0; i < PH_BONNIE_COUNT; i++) {
		if (semctl(id, i, SETVAL, arg) != 0) {
			fprintf(stderr, "clyde: -p: semctl: %s\n", strerror(errno));
			semctl(id, 0, IPC_RMID);
			return EXIT_CANNOT_START;
		}
	}
	return EXIT_OK;
}

int sync_attach(const struct config *cfg)
{
	unsigned short val[PH_BONNIE_COUNT];
	union semun arg = { .array = val };
	struct semid_ds ds;
	bool known;
	int i;

	if (cfg->sync != SYNC_SEMAPHORE)
		return EXIT_OK;
	sem_id = find_set(&ds, &known);
	if (sem_id < 0) {
		fprintf(stderr, "clyde: -y s: no semaphore set with key %ld (make "
		    "it first with -p N): %s\n", sem_key(), strerror(errno));
		return EXIT_CANNOT_START;
	}
	if (!known) {
		fprintf(stderr, "clyde: -y s: the semaphore set with key %ld: "
		    "%s\n", sem_key(), strerror(errno));
		return EXIT_CANNOT_START;
	}
	if (ds.sem_nsems != PH_BONNIE_COUNT)
		return wrong_size("-y s", &ds, "not used");
	if (semctl(sem_id, 0, GETALL, arg) != 0) {
		fprintf(stderr, "clyde: -y s: the semaphore set with key %ld: "
		    "%s\n", sem_key(), strerror(errno));
		return EXIT_CANNOT_START;
	}
	/*
	 * A semaphore at 0 was taken by all the runs it was made for: this
	 * run would wait there for ever (bonnie++ fails with EAGAIN).
	 */
	for (i = 0; i < PH_BONNIE_COUNT; i++) {
		if (val[i] != 0)
			continue;
		fprintf(stderr, "clyde: -y s: the semaphore set with key %ld is "
		    "used up: the runs it was made for have passed %s; when "
		    "they have ended, make it again with -p -1, then -p N\n",
		    sem_key(), phase_csv_name[i]);
		return EXIT_CANNOT_START;
	}
	return EXIT_OK;
}

static int wait_for_enter(const char *label)
{
	char line[64];

	fprintf(stderr, "\nclyde: press Enter to start %s\n", label);
	if (fgets(line, sizeof(line), stdin) != NULL)
		return SYNC_GO;
	return ferror(stdin) ? SYNC_FAILED : SYNC_INPUT_ENDED;
}

static int semop_retry(struct sembuf *op)
{
	while (semop(sem_id, op, 1) != 0)
		if (errno != EINTR || phase_stop)
			return -1;
	return 0;
}

int sync_wait(const struct config *cfg, enum phase_id phase,
    const char *label)
{
	struct sembuf ops[2];

	if (cfg->sync == SYNC_PROMPT)
		return wait_for_enter(label);
	if (cfg->sync != SYNC_SEMAPHORE)
		return SYNC_GO;
	/* taken without waiting, as bonnie++ does: at 0 it is used up */
	ops[0] = (struct sembuf){ .sem_num = (unsigned short)phase, .sem_op = -1,
	    .sem_flg = IPC_NOWAIT };
	ops[1] = (struct sembuf){ .sem_num = (unsigned short)phase, .sem_op = 0 };
	if (semop_retry(&ops[0]) != 0)
		return errno == EAGAIN ? SYNC_USED_UP : SYNC_FAILED;
	/* a stop signal ends the wait; the progress line's tick does not */
	if (semop_retry(&ops[1]) != 0)
		return SYNC_FAILED;
	return SYNC_GO;
}
