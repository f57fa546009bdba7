/*
 * stop.c: the stop signals.  See stop.h.
 */
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
static const char *left_behind_msg;
static size_t left_behind_len;

static void on_stop_signal(int sig)
{
	if (first_signal == 0)
		first_signal = sig;
	if (cleaning_up && phase_stop) {
		/* only async-signal-safe calls here */
		if (write(STDERR_FILENO, left_behind_msg, left_behind_len) < 0)
			_exit(EXIT_INTERRUPTED);
		_exit(EXIT_INTERRUPTED);
	}
	phase_stop = 1;
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
