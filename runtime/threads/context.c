/*
 * context.c - the switch between fibers (fibers.c): save the registers a
 * called function must preserve, move the stack pointer, restore.
 *
 * On x86-64 it is eight instructions each way (the System V ABI's
 * callee-saved registers rbx, rbp, r12-r15, the SSE control and status
 * register and the x87 control word); everything else is saved by the
 * caller of thr_context_switch as for any call. Elsewhere it is ucontext's
 * swapcontext, which also saves the signal mask (a system call per
 * switch). The hand-written switch also keeps AddressSanitizer quiet: its
 * swapcontext interceptor warns on every run, while the explicit fiber
 * annotations in fibers.c tell it everything it needs.
 *
 * A new context's first switch "returns" into its entry function with the
 * stack aligned as after a call (rsp + 8 a multiple of 16) and a return
 * address of 0 above it, where unwinders (pthread_exit's, debuggers') stop.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <string.h>

#include "context.h"

#if defined(__x86_64__)

/* void thr_context_jump(void **save_sp, void *next_sp) */
__asm__(".text\n"
	".p2align 4\n"
	".globl thr_context_jump\n"
	".hidden thr_context_jump\n"
	".type thr_context_jump,@function\n"
	"thr_context_jump:\n"
	"\tpushq %rbp\n"
	"\tpushq %rbx\n"
	"\tpushq %r12\n"
	"\tpushq %r13\n"
	"\tpushq %r14\n"
	"\tpushq %r15\n"
	"\tsubq $8, %rsp\n"
	"\tstmxcsr (%rsp)\n"
	"\tfnstcw 4(%rsp)\n"
	"\tmovq %rsp, (%rdi)\n"
	"\tmovq %rsi, %rsp\n"
	"\tldmxcsr (%rsp)\n"
	"\tfldcw 4(%rsp)\n"
	"\taddq $8, %rsp\n"
	"\tpopq %r15\n"
	"\tpopq %r14\n"
	"\tpopq %r13\n"
	"\tpopq %r12\n"
	"\tpopq %rbx\n"
	"\tpopq %rbp\n"
	"\tret\n"
	".size thr_context_jump, .-thr_context_jump\n");

void thr_context_jump(void **save_sp, void *next_sp);

int thr_context_make(struct thr_context *c, char *stack, size_t size,
		     void (*entry)(void))
{
	uint64_t *top =
	    (uint64_t *)(((uintptr_t)(stack + size)) & ~(uintptr_t)15);
	uint32_t fpu[2];

	__asm__ volatile("stmxcsr %0" : "=m"(fpu[0]));
	__asm__ volatile("fnstcw %0" : "=m"(fpu[1]));
	top[-1] = 0;                          /* the entry's return address */
	top[-2] = (uint64_t)(uintptr_t)entry; /* where the first ret goes */
	memset(top - 8, 0, 6 * sizeof(*top)); /* rbp, rbx, r12-r15 */
	memcpy(top - 9, fpu, sizeof(fpu));
	c->sp = top - 9;
	return 0;
}

void thr_context_switch(struct thr_context *from, struct thr_context *to)
{
	thr_context_jump(&from->sp, to->sp);
}

#else /* ucontext */

int thr_context_make(struct thr_context *c, char *stack, size_t size,
		     void (*entry)(void))
{
	if (getcontext(&c->uc))
		return -1;
	c->uc.uc_stack.ss_sp = stack;
	c->uc.uc_stack.ss_size = size;
	c->uc.uc_link = NULL;
	makecontext(&c->uc, entry, 0);
	return 0;
}

void thr_context_switch(struct thr_context *from, struct thr_context *to)
{
	swapcontext(&from->uc, &to->uc);
}

#endif
