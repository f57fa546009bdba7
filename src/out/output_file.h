/*
 * out/output_file.h: a results file (--json) that is seen complete or not at
 * all (out/output_file.c).
 *
 * It is made by the user who started clyde, before -u drops privileges,
 * as a shell's redirection is, and belongs to that user.  What is
 * written goes to a temporary name in the same directory; a keeper
 * process, forked before the drop and so with that user's rights, links
 * it into place at the end, or removes it when the file is not to be
 * kept or clyde dies (even by SIGKILL).
 */
#ifndef CLYDE_OUTPUT_FILE_H
#define CLYDE_OUTPUT_FILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct output_file {
	const char *path;               /* the name it gets, as given */
	int fd;                         /* the temporary file; -1 when none */
	int keeper_fd;                  /* the pipe to the keeper */
	pid_t keeper;
	char tmp[NAME_MAX + 1];         /* the temporary name, to say it */
	char lead[32];                  /* how the records begin: written at once */
	size_t lead_len;
	size_t lead_done;               /* of it, what the writes have matched */
	bool failed;                    /* a write failed: said, never kept */
};

/*
 * Make the temporary file for path, never over an existing path, and
 * start its keeper.  The file begins at once as its records will (a
 * record's start, after an array's when array): the writes then add
 * the rest.  It is locked while the run or its keeper holds it.  Each
 * temporary file in that directory that a killed run left (one of
 * clyde's names, begun so, unlocked) is named first, and left.
 * Returns 0, or -1 after saying why.
 */
int output_file_open(struct output_file *f, const char *path, bool array);

/*
 * Append n bytes.  A write that fails (a full disk, the file size limit:
 * SIGXFSZ is not raised) is said once; the file is then not kept, and
 * nothing else stops.
 */
void output_file_write(struct output_file *f, const void *buf, size_t n);

/*
 * keep: link the file into place under its name (when every write
 * worked); else remove it.  Returns 0, or -1 when a file to keep is
 * not there, after saying why.
 */
int output_file_close(struct output_file *f, bool keep);

#endif
