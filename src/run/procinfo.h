/*
 * run/procinfo.h: what /proc (Linux) tells of another process, for the
 * watcher and its supervisor (run/stall.c, run/supervisor.c).  Elsewhere
 * every answer is "unknown".
 */
#ifndef CLYDE_PROCINFO_H
#define CLYDE_PROCINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The call thread tid of pid is in, with the file it names, into out (n
 * bytes): "open(/mnt/nfs/clyde.1.x/files/00000001ab)"; "" unknown, or
 * tid 0.  seekers: pid waits for seekers, and a read of a pipe is its
 * wait for them to start (phases/seek.c).
 */
void procinfo_call(pid_t pid, long tid, bool seekers, char *out, size_t n);
/*
 * The state letter of process pid ('T': stopped, 't': stopped by a
 * debugger), or 0 unknown; *ppid its parent, unless ppid is NULL.
 */
char procinfo_pid_state(pid_t pid, pid_t *ppid);
/* The same of thread tid of pid. */
char procinfo_task_state(pid_t pid, long tid);
/*
 * How far thread tid of pid has gone, a count that a thread in a call
 * that hangs does not move; 0 unknown.
 */
uint64_t procinfo_run_count(pid_t pid, long tid);

#endif
