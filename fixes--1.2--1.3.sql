/* fixes--1.2--1.3.sql — update of the fixes extension from 1.2 to 1.3 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION fixes UPDATE TO '1.3'" to load this file. \quit

-- Version 1.3 has no install script of its own: CREATE EXTENSION fixes runs
-- fixes--1.0.sql and each update script after it, so that no line of SQL is
-- written twice and a fresh install is an update by construction.
-- Each block below belongs to one issue; keep them apart.

-- ---- issue 42: releases where the project tags them ----
-- ---- end of issue 42 ----

-- ---- issue 43: a refresh equals a cold load ----
-- ---- end of issue 43 ----

-- ---- issue 46: shards ----
-- ---- end of issue 46 ----
