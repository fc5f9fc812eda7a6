/*
 * spi_call.h — every SQL statement of a load, through one door
 */
#ifndef FIXES_SPI_CALL_H
#define FIXES_SPI_CALL_H

#include "executor/spi.h"

extern uint64 fixes_spi_execute(const char *sql, int nargs, Oid *types, Datum *values,
								const char *nulls, long count, int expected);
extern SPIPlanPtr fixes_spi_prepare(const char *sql, int nargs, Oid *types);
extern SPIPlanPtr fixes_spi_prepare_generic(const char *sql, int nargs, Oid *types);
extern uint64 fixes_spi_execute_plan(SPIPlanPtr plan, Datum *values, const char *nulls,
									 int expected);
extern Portal fixes_spi_cursor_open(const char *sql, int nargs, Oid *types, Datum *values);
extern uint64 fixes_spi_cursor_fetch(Portal portal, long count);
extern void fixes_spi_cursor_close(Portal portal);
extern Datum fixes_spi_int4_array(const uint32 *values, int64 n);
extern uint64 fixes_spi_delete_rows(const char *schema, const char *table, int32 repository_id);
extern SPIPlanPtr fixes_spi_prepare_row_id_update(const char *schema, const char *table, const char *set,
												  int nargs, Oid *types);
extern void fixes_spi_update_row_ids(SPIPlanPtr plan, Datum *args, const char *nulls, Datum *row_ids,
									 int n, const char *table, int32 repository_id);

#endif							/* FIXES_SPI_CALL_H */
