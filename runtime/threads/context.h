/*
 * context.h - a fiber's saved registers and the switch between two
 * (context.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_THREADS_CONTEXT_H
#define VP_THREADS_CONTEXT_H

#include <stddef.h>

#if defined(__x86_64__)
struct thr_context {
	void *sp; /* the stack pointer; the registers are on that stack */
};
#else
#include <ucontext.h>
struct thr_context {
	ucontext_t uc;
};
#endif

/* c starts entry (which must never return) on stack[0..size) at its first
 * switch. 0, or -1. */
int thr_context_make(struct thr_context *c, char *stack, size_t size,
		     void (*entry)(void));
/* Saves the caller in from and resumes to; returns when something
 * switches back to from. */
void thr_context_switch(struct thr_context *from, struct thr_context *to);

#endif /* VP_THREADS_CONTEXT_H */
