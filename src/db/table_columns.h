/*
 * table_columns.h — the extension's tables and their columns, by name
 */
#ifndef FIXES_TABLE_COLUMNS_H
#define FIXES_TABLE_COLUMNS_H

#include "access/tupdesc.h"

extern Oid	fixes_table_oid(Oid nsp, const char *relname);
extern Oid	fixes_table_oid_if_exists(Oid nsp, const char *relname);
extern int	fixes_attnum(TupleDesc desc, const char *name);
extern int	fixes_attnum_if_exists(TupleDesc desc, const char *name);

#endif							/* FIXES_TABLE_COLUMNS_H */
