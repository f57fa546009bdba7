/*
 * cli/report_cmd.h: clyde report, bonnie++ results of every generation read
 * from files and printed as text, CSV, HTML or JSON.
 */
#ifndef CLYDE_REPORT_CMD_H
#define CLYDE_REPORT_CMD_H

#include <stdbool.h>

/*
 * argv[0] is "report"; stdout_closed: the standard output was closed when
 * clyde started (main() holds its place with /dev/null).  Returns the
 * exit status.
 */
int report_main(int argc, char **argv, bool stdout_closed);

#endif
