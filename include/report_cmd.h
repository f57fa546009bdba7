/*
 * report_cmd.h: clyde report, bonnie++ results of every generation read
 * from files and printed as text, CSV, HTML or JSON.
 */
#ifndef CLYDE_REPORT_CMD_H
#define CLYDE_REPORT_CMD_H

/* argv[0] is "report".  Returns the exit status. */
int report_main(int argc, char **argv);

#endif
