/*
 * extension_schema.h — the schema of extension fixes, for the functions
 * that name its tables
 */
#ifndef FIXES_EXTENSION_SCHEMA_H
#define FIXES_EXTENSION_SCHEMA_H

#include "fmgr.h"

extern Oid	fixes_extension_schema(FunctionCallInfo fcinfo, const char **quoted, Oid *extension);

#endif							/* FIXES_EXTENSION_SCHEMA_H */
