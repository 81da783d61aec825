#ifndef RACEKIT_CLIBXML2_SHIM_H
#define RACEKIT_CLIBXML2_SHIM_H

// Debian's libxml2 is built with ICU; its headers then include the system ICU
// headers, which clash with the toolchain's ICU in any module that also imports
// Foundation (a clean build fails, an incremental one passes). RaceKit needs none
// of libxml2's ICU API, so switch it off before the other headers are read.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlwriter.h>
#include <libxml/xmlIO.h>

#endif
