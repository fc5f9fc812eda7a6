/* fixes--1.1--1.2.sql — update of the fixes extension from 1.1 to 1.2 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION fixes UPDATE TO '1.2'" to load this file. \quit

-- Version 1.2 has no install script of its own: CREATE EXTENSION fixes runs
-- fixes--1.0.sql, fixes--1.0--1.1.sql and this script, so that no line of
-- SQL is written twice and a fresh install is an update by construction.
-- Each block below belongs to one issue; keep them apart.

-- ---- issue 27: structure ----
-- ---- end of issue 27 ----

-- ---- issue 28: hostile inputs ----
-- ---- end of issue 28 ----

-- ---- issue 29: answers a CVE analyst can trust ----
-- ---- end of issue 29 ----

-- ---- issue 30: statistics on real histories ----
-- ---- end of issue 30 ----

-- ---- issue 31: refresh ----
-- ---- end of issue 31 ----

-- ---- issue 32: CVE records ----
-- ---- end of issue 32 ----
