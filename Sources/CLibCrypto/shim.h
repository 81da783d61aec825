#ifndef RACEKIT_CLIBCRYPTO_SHIM_H
#define RACEKIT_CLIBCRYPTO_SHIM_H
// Only the message-digest API of the system's libcrypto (OpenSSL): SHA-256.
#include <openssl/evp.h>
#endif
