/*
 * cli/describe.h: where and how the run happens, as its record keeps it
 * (cli/describe.c): time, target, mount, host and block device, options.
 */
#ifndef CLYDE_DESCRIBE_H
#define CLYDE_DESCRIBE_H

#include "config.h"
#include "result.h"

/*
 * Where and how the run happens: time, target (its mount from its
 * descriptor, target_fd), filesystem, options.
 */
void setup_describe_run(const struct config *cfg, int target_fd,
    struct run_info *run);

#endif
