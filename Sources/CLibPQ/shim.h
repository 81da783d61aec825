#ifndef RACEKIT_CLIBPQ_SHIM_H
#define RACEKIT_CLIBPQ_SHIM_H
// PostgreSQL's client library (Debian's libpq-dev for the header, libpq5 at run
// time), loaded when a command first opens a PostgreSQL store, not when racekit
// starts: libpq brings some twenty libraries with it (OpenSSL, Kerberos, LDAP,
// GnuTLS, ICU), whose loading every command would otherwise pay for.
#include <dlfcn.h>
#include <stddef.h>
#include <postgresql/libpq-fe.h>

// The functions RaceKit calls, resolved from the loaded library.
typedef struct {
    PGconn *(*connectdbParams)(const char *const *keywords, const char *const *values, int expand_dbname);
    void (*finish)(PGconn *conn);
    PQconninfoOption *(*conninfoParse)(const char *conninfo, char **errmsg);
    void (*conninfoFree)(PQconninfoOption *options);
    ConnStatusType (*status)(const PGconn *conn);
    int (*serverVersion)(const PGconn *conn);
    char *(*errorMessage)(const PGconn *conn);
    int (*connectionNeedsPassword)(const PGconn *conn);
    PQnoticeProcessor (*setNoticeProcessor)(PGconn *conn, PQnoticeProcessor proc, void *arg);
    PGresult *(*exec)(PGconn *conn, const char *query);
    PGresult *(*execParams)(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                            const char *const *paramValues, const int *paramLengths, const int *paramFormats,
                            int resultFormat);
    ExecStatusType (*resultStatus)(const PGresult *res);
    char *(*resultErrorField)(const PGresult *res, int fieldcode);
    int (*ntuples)(const PGresult *res);
    int (*nfields)(const PGresult *res);
    Oid (*ftype)(const PGresult *res, int field_num);
    char *(*cmdTuples)(PGresult *res);
    char *(*getvalue)(const PGresult *res, int tup_num, int field_num);
    int (*getlength)(const PGresult *res, int tup_num, int field_num);
    int (*getisnull)(const PGresult *res, int tup_num, int field_num);
    void (*clear)(PGresult *res);
    void (*freemem)(void *ptr);
} RKLibPQ;

// Loads libpq from `path` (libpq.so.5, the ABI every PostgreSQL since 8.0 ships)
// and fills `pq`; returns 0 when the library or one of the functions is missing.
static inline int rk_libpq_load(RKLibPQ *pq, const char *path) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) return 0;
#define RK_PQ(field, symbol) \
    if ((*(void **)&pq->field = dlsym(h, symbol)) == NULL) return 0;
    RK_PQ(connectdbParams, "PQconnectdbParams")
    RK_PQ(finish, "PQfinish")
    RK_PQ(conninfoParse, "PQconninfoParse")
    RK_PQ(conninfoFree, "PQconninfoFree")
    RK_PQ(status, "PQstatus")
    RK_PQ(serverVersion, "PQserverVersion")
    RK_PQ(errorMessage, "PQerrorMessage")
    RK_PQ(connectionNeedsPassword, "PQconnectionNeedsPassword")
    RK_PQ(setNoticeProcessor, "PQsetNoticeProcessor")
    RK_PQ(exec, "PQexec")
    RK_PQ(execParams, "PQexecParams")
    RK_PQ(resultStatus, "PQresultStatus")
    RK_PQ(resultErrorField, "PQresultErrorField")
    RK_PQ(ntuples, "PQntuples")
    RK_PQ(nfields, "PQnfields")
    RK_PQ(ftype, "PQftype")
    RK_PQ(cmdTuples, "PQcmdTuples")
    RK_PQ(getvalue, "PQgetvalue")
    RK_PQ(getlength, "PQgetlength")
    RK_PQ(getisnull, "PQgetisnull")
    RK_PQ(clear, "PQclear")
    RK_PQ(freemem, "PQfreemem")
#undef RK_PQ
    return 1;
}
#endif
