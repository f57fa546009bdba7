/*
 * sync.c: SysV semaphores as bonnie++ uses them.  One semaphore per phase
 * starts at N; each process takes one and then waits for zero, so none
 * starts the phase before all N have reached it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <unistd.h>

#include "stop.h"
#include "sync.h"

#define SEM_KEY 4711            /* bonnie++'s SemKey */

/* The caller defines this union (POSIX says so for semctl's 4th argument). */
union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
};

static int sem_id = -1;

int sync_setup(const struct config *cfg)
{
	union semun arg;
	int id, i;

	if (cfg->sync == SYNC_REMOVE) {
		id = semget(SEM_KEY, 0, 0);
		if (id < 0 || semctl(id, 0, IPC_RMID) != 0) {
			fprintf(stderr, "clyde: -p -1: cannot remove the semaphore: "
			    "%s\n", strerror(errno));
			return EXIT_CANNOT_START;
		}
		return EXIT_OK;
	}
	id = semget(SEM_KEY, PH_COUNT, IPC_CREAT | IPC_EXCL | 0666);
	if (id < 0) {
		fprintf(stderr, "clyde: -p %u: cannot make the semaphore: %s%s\n",
		    cfg->sync_procs, strerror(errno), errno == EEXIST ?
		    " (remove the old one with -p -1)" : "");
		return EXIT_CANNOT_START;
	}
	arg.val = (int)cfg->sync_procs;
	for (i = 0; i < PH_COUNT; i++) {
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
	if (cfg->sync != SYNC_SEMAPHORE)
		return EXIT_OK;
	sem_id = semget(SEM_KEY, PH_COUNT, 0);
	if (sem_id < 0) {
		fprintf(stderr, "clyde: -y s: no semaphore (make it first with "
		    "-p N): %s\n", strerror(errno));
		return EXIT_CANNOT_START;
	}
	return EXIT_OK;
}

static int wait_for_enter(enum phase_id phase)
{
	char line[64];

	fprintf(stderr, "\nclyde: press Enter to start %s\n",
	    phase_csv_name[phase]);
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

int sync_wait(const struct config *cfg, enum phase_id phase)
{
	struct sembuf ops[2];

	if (cfg->sync == SYNC_PROMPT)
		return wait_for_enter(phase);
	if (cfg->sync != SYNC_SEMAPHORE)
		return SYNC_GO;
	ops[0] = (struct sembuf){ .sem_num = (unsigned short)phase, .sem_op = -1 };
	ops[1] = (struct sembuf){ .sem_num = (unsigned short)phase, .sem_op = 0 };
	/* a stop signal ends the wait; the progress line's tick does not */
	if (semop_retry(&ops[0]) != 0 || semop_retry(&ops[1]) != 0)
		return SYNC_FAILED;
	return SYNC_GO;
}
