// System headers that Swift's Glibc module does not export. No logic.
#ifndef CAST_CCASTSYSTEM_SHIM_H
#define CAST_CCASTSYSTEM_SHIM_H

#if defined(__linux__)
#include <sys/epoll.h>
#endif

#endif
