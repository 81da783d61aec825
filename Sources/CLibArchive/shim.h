#ifndef RACEKIT_CLIBARCHIVE_SHIM_H
#define RACEKIT_CLIBARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#endif
