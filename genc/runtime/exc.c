/* rpy3 runtime: the exception state (see "exceptions" in rpy3.h). */
#include "rpy3.h"

void *rpy_exc_type;
void *rpy_exc_value;
