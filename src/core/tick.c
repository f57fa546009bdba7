/*
 * core/tick.c: the tick of the phase loops.  See core/tick.h.
 */
#include <stddef.h>

#include "core/tick.h"

volatile sig_atomic_t tick_due;

static void (*tick_on)(void);
static void (*tick_wait_on)(bool);

void tick_register(void (*on_tick)(void), void (*wait_ticks)(bool on))
{
	tick_on = on_tick;
	tick_wait_on = wait_ticks;
}

void tick_take(void)
{
	if (tick_on != NULL)
		tick_on();
	else
		tick_due = 0;   /* else each operation would call here */
}

void tick_wait(bool on)
{
	if (tick_wait_on != NULL)
		tick_wait_on(on);
}
