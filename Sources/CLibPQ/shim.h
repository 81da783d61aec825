#ifndef RACEKIT_CLIBPQ_SHIM_H
#define RACEKIT_CLIBPQ_SHIM_H
// PostgreSQL's client library (Debian's libpq-dev): connections, parameterised
// statements with binary values, results.
#include <libpq-fe.h>
#endif
