// System headers and declarations that Swift's Glibc module does not export. No logic.
#ifndef CAST_CCASTSYSTEM_SHIM_H
#define CAST_CCASTSYSTEM_SHIM_H

#if defined(__linux__)
#include <sys/epoll.h>
#include <sys/eventfd.h>

// glibc declares these two only for _GNU_SOURCE / __USE_MISC builds, which the Glibc module
// is not (in glibc since 2.10 and 2.34). Their pointer parameters are declared `void *` so
// this header needs neither <sys/socket.h> nor <spawn.h>, which belong to the Glibc module:
// `address` is a `struct sockaddr *`, `length` a `socklen_t *`, `actions` a
// `posix_spawn_file_actions_t *`.
extern int accept4(int fd, void *address, void *length, int flags);
extern int posix_spawn_file_actions_addclosefrom_np(void *actions, int from);
#endif

#endif
