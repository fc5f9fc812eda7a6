/*
 * graph_rows.h — the layout of fixes_graph's rows, which load_graph.c
 * writes and refresh/graph_read.c reads
 */
#ifndef FIXES_GRAPH_ROWS_H
#define FIXES_GRAPH_ROWS_H

#define SNAPSHOT_FORMAT 1
#define CHUNK_COMMITS 65536

#endif							/* FIXES_GRAPH_ROWS_H */
