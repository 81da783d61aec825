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
    PGresult *(*prepare)(PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes);
    PGresult *(*execPrepared)(PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues,
                              const int *paramLengths, const int *paramFormats, int resultFormat);
    // Pipeline mode (libpq 14 and later): NULL with an older libpq, whose
    // statements are then sent one at a time.
    int (*enterPipelineMode)(PGconn *conn);
    int (*exitPipelineMode)(PGconn *conn);
    int (*pipelineSync)(PGconn *conn);
    int (*sendQueryParams)(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                           const char *const *paramValues, const int *paramLengths, const int *paramFormats,
                           int resultFormat);
    int (*sendQueryPrepared)(PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues,
                             const int *paramLengths, const int *paramFormats, int resultFormat);
    PGresult *(*getResult)(PGconn *conn);
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
    RK_PQ(prepare, "PQprepare")
    RK_PQ(execPrepared, "PQexecPrepared")
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
    *(void **)&pq->enterPipelineMode = dlsym(h, "PQenterPipelineMode");
    *(void **)&pq->exitPipelineMode = dlsym(h, "PQexitPipelineMode");
    *(void **)&pq->pipelineSync = dlsym(h, "PQpipelineSync");
    *(void **)&pq->sendQueryParams = dlsym(h, "PQsendQueryParams");
    *(void **)&pq->sendQueryPrepared = dlsym(h, "PQsendQueryPrepared");
    *(void **)&pq->getResult = dlsym(h, "PQgetResult");
    return 1;
}
#endif
