/*
 * stop.c: the stop signals.  See stop.h.
 */
#include <pthread.h>
#include <stdbool.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "stop.h"

volatile sig_atomic_t phase_stop;

/* the first stop signal, for the message and for EFBIG after SIGXFSZ */
static volatile sig_atomic_t first_signal;
/* Set while cleaning up: a second signal then ends at once. */
static volatile sig_atomic_t cleaning_up;
static volatile sig_atomic_t signal_count;
static const char *left_behind_msg;
static size_t left_behind_len;

/* One set of children per copy (-c) at the most. */
static struct {
	const volatile pid_t *volatile pids;
	const volatile unsigned *volatile count;
} children[CONCURRENCY_MAX];
static pthread_mutex_t children_lock = PTHREAD_MUTEX_INITIALIZER;

/* Only async-signal-safe calls: kill() */
static void kill_children(void)
{
	for (size_t i = 0; i < CONCURRENCY_MAX; i++) {
		const volatile pid_t *pids = children[i].pids;
		const volatile unsigned *count = children[i].count;

		if (pids == NULL || count == NULL)
			continue;
		for (unsigned k = 0; k < *count; k++)
			if (pids[k] > 0)
				kill(pids[k], SIGKILL);
	}
}

void stop_take_signal(int sig)
{
	bool again = first_signal != 0;

	if (!again)
		first_signal = sig;
	if (signal_count < 1000)
		signal_count++;
	if (cleaning_up && phase_stop) {
		/* only async-signal-safe calls here */
		if (write(STDERR_FILENO, left_behind_msg, left_behind_len) < 0)
			_exit(EXIT_INTERRUPTED);
		_exit(EXIT_INTERRUPTED);
	}
	phase_stop = 1;
	/* the phase waits for its children: a stuck or stopped one must go */
	if (again)
		kill_children();
}

static void on_stop_signal(int sig)
{
	stop_take_signal(sig);
}

int stop_children_add(const volatile pid_t *pids, const volatile unsigned *count)
{
	int handle = -1;

	pthread_mutex_lock(&children_lock);
	for (size_t i = 0; i < CONCURRENCY_MAX && handle < 0; i++) {
		if (children[i].pids != NULL)
			continue;
		/* the count first: the handler looks at pids, then count */
		children[i].count = count;
		children[i].pids = pids;
		handle = (int)i;
	}
	pthread_mutex_unlock(&children_lock);
	return handle;
}

void stop_children_remove(int handle)
{
	if (handle < 0 || handle >= CONCURRENCY_MAX)
		return;
	pthread_mutex_lock(&children_lock);
	children[handle].pids = NULL;
	children[handle].count = NULL;
	pthread_mutex_unlock(&children_lock);
}

void stop_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGXCPU, &sa, NULL);
	sigaction(SIGXFSZ, &sa, NULL);
	/* a lost terminal must not end a long run, as in bonnie++ */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGHUP, &sa, NULL);
	/* a closed stdout becomes EPIPE on write, seen when stdout is closed */
	sigaction(SIGPIPE, &sa, NULL);
}

int stop_signal(void)
{
	return first_signal;
}

unsigned stop_signal_count(void)
{
	return (unsigned)signal_count;
}

const char *stop_signal_name(void)
{
	switch (first_signal) {
	case SIGINT:
		return " by SIGINT";
	case SIGTERM:
		return " by SIGTERM";
	case SIGXCPU:
		return " by SIGXCPU (the CPU time limit)";
	case SIGXFSZ:
		return " by SIGXFSZ (the file size limit)";
	default:
		return "";
	}
}

void stop_cleanup_begin(const char *msg, size_t len)
{
	left_behind_msg = msg;
	left_behind_len = len;
	cleaning_up = 1;
}

void stop_cleanup_end(void)
{
	cleaning_up = 0;
}
