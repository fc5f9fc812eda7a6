/*
 * repository_lock.h — the lock that fixes_load and fixes_unload take on a repository's name
 */
#ifndef FIXES_REPOSITORY_LOCK_H
#define FIXES_REPOSITORY_LOCK_H

extern void fixes_lock_repository(const char *name);

#endif							/* FIXES_REPOSITORY_LOCK_H */
