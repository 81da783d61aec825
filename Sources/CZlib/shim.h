#ifndef RACEKIT_CZLIB_SHIM_H
#define RACEKIT_CZLIB_SHIM_H
#include <zlib.h>
#endif
