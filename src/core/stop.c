/*
 * core/stop.c: the stop signals.  See core/stop.h.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "core/stop.h"

volatile sig_atomic_t phase_stop;

/* the first stop signal, for the message and for EFBIG after SIGXFSZ */
static volatile sig_atomic_t first_signal;
/* Set while cleaning up: a second signal then ends at once. */
static volatile sig_atomic_t cleaning_up;
static volatile sig_atomic_t signal_count;
static const char *left_behind_msg;

/* Every signal that stops a run, with the words for "interrupted ..." */
static const struct {
	int sig;
	const char *name;
} stop_signals[] = {
	{ SIGINT, " by SIGINT" },
	{ SIGTERM, " by SIGTERM" },
	{ SIGQUIT, " by SIGQUIT" },
	{ SIGUSR1, " by SIGUSR1" },
	{ SIGUSR2, " by SIGUSR2" },
	{ SIGALRM, " by SIGALRM" },
	{ SIGXCPU, " by SIGXCPU (the CPU time limit)" },
	{ SIGXFSZ, " by SIGXFSZ (the file size limit)" },
};
static size_t left_behind_len;
/* stop_parent_death(): that parent's SIGTERM, and whether it came */
static volatile pid_t dying_parent;
static volatile sig_atomic_t parent_died;

/* One set of children per copy (-c) at the most. */
static struct {
	const volatile pid_t *volatile pids;
	const volatile unsigned *volatile count;
} children[CONCURRENCY_MAX];
static pthread_mutex_t children_lock = PTHREAD_MUTEX_INITIALIZER;

/* The copy processes of -c, to which every stop signal counted goes on. */
static const volatile pid_t *volatile copies_pids;
static const volatile unsigned *volatile copies_count;

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

/*
 * The stop signals that both the supervisor and this process may get,
 * as sender << 6 | signal, each kept until the other copy comes: those
 * this process took (took) and those the supervisor sent on (passed).
 * A few are enough: the two copies of a signal come moments apart.
 */
#define PAIRS 16
static atomic_int took[PAIRS], passed[PAIRS];
static atomic_uint took_next, passed_next;
static atomic_flag pairs_lock = ATOMIC_FLAG_INIT;

static int pair_key(int sig, pid_t sender)
{
	return (int)((unsigned)sender << 6 | (unsigned)sig);
}

/* Take key out of list: true when it was there. */
static bool pair_take(atomic_int *list, int key)
{
	for (int i = 0; i < PAIRS; i++) {
		int k = key;

		if (atomic_compare_exchange_strong(&list[i], &k, 0))
			return true;
	}
	return false;
}

/* Keep key in list, over the oldest when it is full. */
static void pair_put(atomic_int *list, atomic_uint *next, int key)
{
	atomic_store(&list[atomic_fetch_add(next, 1) % PAIRS], key);
}

/*
 * One copy of a signal came: true when the other copy came first (it is
 * in other, and taken out); else this one is kept in mine for it.
 */
static bool pair_match(atomic_int *other, atomic_int *mine,
    atomic_uint *next, int key)
{
	bool seen;

	while (atomic_flag_test_and_set(&pairs_lock))
		;
	seen = pair_take(other, key);
	if (!seen)
		pair_put(mine, next, key);
	atomic_flag_clear(&pairs_lock);
	return seen;
}

static int forward_signal(void);

/*
 * The copies that are stopped (SIGSTOP, a debugger) cannot take the stop
 * signals passed on to them: SIGKILL, as for a seeker; their parent then
 * removes what they made.  waitid() with WNOWAIT leaves the stop to be
 * seen again; only kill() else.
 */
static void kill_stopped_copies(void)
{
	const volatile pid_t *pids = copies_pids;
	const volatile unsigned *count = copies_count;
	siginfo_t si;

	if (pids == NULL || count == NULL)
		return;
	for (unsigned k = 0; k < *count; k++) {
		pid_t pid = pids[k];

		si.si_pid = 0;
		if (pid > 0 && waitid(P_PID, (id_t)pid, &si,
		    WSTOPPED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid)
			kill(pid, SIGKILL);
	}
}

/* Only async-signal-safe calls: sigqueue() */
static void forward_to_copies(int key)
{
	const volatile pid_t *pids = copies_pids;
	const volatile unsigned *count = copies_count;
	union sigval v;

	if (pids == NULL || count == NULL)
		return;
	v.sival_int = key;
	for (unsigned k = 0; k < *count; k++)
		if (pids[k] > 0)
			sigqueue(pids[k], forward_signal(), v);
}

/*
 * One stop signal, counted: key says which and from whom (pair_key()),
 * for the copies it goes on to.  Only async-signal-safe calls: kill(),
 * sigqueue(), write(), _exit()
 */
static void stop_take_signal(int sig, int key)
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
	/* the copies stop too, and count it as this process does */
	forward_to_copies(key);
	/* the phase waits for its children: a stuck or stopped one must go */
	if (again) {
		kill_children();
		kill_stopped_copies();
	}
}

pid_t stop_sender(const siginfo_t *si)
{
	return si->si_code == SI_USER || si->si_code == SI_QUEUE
#ifdef SI_TKILL
	    || si->si_code == SI_TKILL
#endif
	    ? si->si_pid : 0;
}

/*
 * The signal number that carries a stop signal from the supervisor: a
 * real-time one, queued, so that two stop signals stay two.
 */
static int forward_signal(void)
{
	return SIGRTMIN + 2;
}

void stop_forward(pid_t to, int sig, pid_t sender)
{
	union sigval v;

	v.sival_int = pair_key(sig, sender);
	sigqueue(to, forward_signal(), v);
}

/*
 * A stop signal sent to this process.  SIGINT and SIGTERM from another
 * process or the terminal may have reached the supervisor too: kept, so
 * that its copy is not counted again.
 */
void stop_on_signal(int sig, siginfo_t *si, void *uc)
{
	pid_t sender = stop_sender(si);
	int key = pair_key(sig, sender);
	bool counted = false;

	(void)uc;
	if (sig == SIGTERM && sender != 0 && sender == dying_parent) {
		if (parent_died)
			return;
		parent_died = 1;
	}
	if ((sig == SIGINT || sig == SIGTERM) && sender != getpid())
		counted = pair_match(passed, took, &took_next, key);
	if (!counted)
		stop_take_signal(sig, key);
}

void stop_parent_death(pid_t parent)
{
	dying_parent = parent;
}

/* A stop signal the supervisor took and sent on. */
static void on_forwarded(int fsig, siginfo_t *si, void *uc)
{
	int key = si->si_value.sival_int;

	(void)fsig;
	(void)uc;
	if (si->si_code != SI_QUEUE || si->si_pid != getppid())
		return;
	if (!pair_match(took, passed, &passed_next, key))
		stop_take_signal(key & 63, key);
}

void stop_copies_set(const volatile pid_t *pids, const volatile unsigned *count)
{
	/* the handler looks at pids, then count */
	copies_pids = NULL;
	copies_count = count;
	copies_pids = pids;
}

void stop_forget_copies(void)
{
	int i;

	copies_pids = NULL;
	copies_count = NULL;
	for (i = 0; i < PAIRS; i++) {
		atomic_store(&took[i], 0);
		atomic_store(&passed[i], 0);
	}
	for (size_t k = 0; k < CONCURRENCY_MAX; k++) {
		children[k].pids = NULL;
		children[k].count = NULL;
	}
}

void stop_adopt(int sig)
{
	if (!phase_stop)
		stop_take_signal(sig, pair_key(sig, getpid()));
}

void stop_signals_block(sigset_t *saved)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGXCPU);
	sigaddset(&set, SIGXFSZ);
	sigaddset(&set, forward_signal());
	sigprocmask(SIG_BLOCK, &set, saved);
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
	/* one at a time in a thread: the pairs' lock is never taken twice */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&sa.sa_mask, stop_signals[i].sig);
	sigaddset(&sa.sa_mask, forward_signal());
	sa.sa_flags = SA_SIGINFO;
	sa.sa_sigaction = stop_on_signal;
	/*
	 * Ctrl-\ and the signals whose default is to end a process: a run
	 * ended by them would leave its scratch directory without a word.
	 * SIGALRM is also the progress line's tick (run/progress.c passes on
	 * one sent by a process).
	 */
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i].sig, &sa, NULL);
	sa.sa_sigaction = on_forwarded;
	sigaction(forward_signal(), &sa, NULL);
	/* a lost terminal must not end a long run, as in bonnie++ */
	sa.sa_flags = 0;
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
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		if (stop_signals[i].sig == first_signal)
			return stop_signals[i].name;
	return "";
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
