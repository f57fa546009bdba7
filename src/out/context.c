/*
 * out/context.c: the context line of a run's record (out/context.h).
 * One line, so that a page or a Markdown post keeps what is needed to
 * trust a number beside it: two runs on different mount options or with
 * -b on one side are not the same measurement.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "out/context.h"

/* append to out (n bytes, NUL-terminated) as printf, cut at n */
static void add(char *out, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void add(char *out, size_t n, const char *fmt, ...)
{
	size_t len = strlen(out);
	va_list ap;

	if (len + 1 >= n)
		return;
	va_start(ap, fmt);
	vsnprintf(out + len, n - len, fmt, ap);
	va_end(ap);
}

static void add_filesystem(char *out, size_t n, const struct run_info *run)
{
	if (run->fstype[0] == '\0' && run->mount_options[0] == '\0')
		return;
	add(out, n, "%s", run->fstype[0] ? run->fstype : "filesystem");
	if (run->mount_source[0] != '\0' &&
	    strcmp(run->mount_source, run->fstype) != 0)
		add(out, n, " from %s", run->mount_source);
	if (run->mount_options[0] != '\0')
		add(out, n, ", mounted %s", run->mount_options);
	add(out, n, "; ");
}

static void add_host(char *out, size_t n, const struct host_info *h)
{
	const struct device_info *d = &h->device;
	const char *sep = "";

	if (h->name[0] != '\0')
		add(out, n, "; host %s", h->name);
	else
		add(out, n, "; host");
	add(out, n, " (");
	if (h->kernel[0] != '\0') {
		add(out, n, "Linux %s", h->kernel);
		sep = ", ";
	}
	if (h->cpu[0] != '\0') {
		add(out, n, "%s%s", sep, h->cpu);
		sep = ", ";
	}
	if (h->ram_mib >= 1024)
		add(out, n, "%s%.1f GiB RAM", sep, (double)h->ram_mib / 1024);
	else if (h->ram_mib > 0)
		add(out, n, "%s%llu MiB RAM", sep, (unsigned long long)h->ram_mib);
	add(out, n, ")");
	if (strcmp(out + strlen(out) - 3, " ()") == 0)
		out[strlen(out) - 3] = '\0';
	if (!h->has_device)
		return;
	add(out, n, "; device %s", d->name[0] ? d->name : "?");
	if (d->disk[0] != '\0' && strcmp(d->disk, d->name) != 0)
		add(out, n, " on %s", d->disk);
	if (d->model[0] != '\0')
		add(out, n, ", %s", d->model);
	if (d->scheduler[0] != '\0')
		add(out, n, ", scheduler %s", d->scheduler);
	if (d->read_only == 1)
		add(out, n, ", read-only");
}

/* whether the list "a, b, c" holds name */
static bool has_name(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *at;

	for (at = list; (at = strstr(at, name)) != NULL; at++)
		if ((at == list || (at >= list + 2 && at[-1] == ' ' &&
		    at[-2] == ',')) && (at[len] == '\0' || at[len] == ','))
			return true;
	return false;
}

bool report_context_line(char *out, size_t n, const struct result *r)
{
	const struct run_info *run = &r->run;

	if (n == 0)
		return false;
	out[0] = '\0';
	if (!r->from_run)
		return false;
	add_filesystem(out, n, run);
	add(out, n, "--compat=%s", run->compat == COMPAT_200 ? "2.00" : "1.03");
	if (run->sync_writes || run->direct_io)
		add(out, n, "%s%s", run->sync_writes ? "; -b (fsync)" : "",
		    run->direct_io ? "; -D (O_DIRECT)" : "");
	else
		add(out, n, "; without -b or -D");
	if (run->has_host)
		add_host(out, n, &run->host);
	return true;
}

void report_context_add(struct report_contexts *list, const struct result *r,
    const char *label)
{
	struct report_context *c;
	char what[sizeof(list->c[0].what)];
	size_t i;

	if (!report_context_line(what, sizeof(what), r))
		return;
	for (i = 0; i < list->n; i++)
		if (strcmp(list->c[i].what, what) == 0)
			break;
	if (i == list->n) {
		if (list->n == REPORT_CONTEXT_MAX) {
			list->rows_left_out++;
			return;
		}
		c = &list->c[list->n++];
		memcpy(c->what, what, sizeof(what));
		c->rows[0] = '\0';
		c->nrows = 0;
	}
	c = &list->c[i];
	/* a name once, as a sweep's points or a set's runs share it */
	if (label[0] != '\0' && !has_name(c->rows, label))
		add(c->rows, sizeof(c->rows), "%s%s", c->rows[0] ? ", " : "",
		    label);
	c->nrows++;
}

void report_context_print(FILE *out, const struct report_contexts *list,
    const struct report_context_markup *m)
{
	size_t i;

	if (list->n == 0)
		return;
	fputs(m->list[0], out);
	for (i = 0; i < list->n; i++) {
		fputs(m->item[0], out);
		if (list->n > 1 || list->c[0].nrows > 1) {
			fputs(m->name[0], out);
			m->put(out, list->c[i].rows);
			fputs(m->name[1], out);
		}
		m->put(out, list->c[i].what);
		fputs(m->item[1], out);
	}
	if (list->rows_left_out > 0) {
		fputs(m->item[0], out);
		fprintf(out, "%zu more row%s, each with a context of its own, "
		    "not listed", list->rows_left_out,
		    list->rows_left_out == 1 ? "" : "s");
		fputs(m->item[1], out);
	}
	fputs(m->list[1], out);
}
