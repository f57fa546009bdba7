/*
 * xstate_shim.c: an LD_PRELOAD library for linux.uml (User-mode Linux
 * 6.1), for the uml-xstate guest of tests/root/nfs/guest.sh only, never part
 * of clyde.
 *
 * UML saves and restores the FPU state of its processes with
 * ptrace(PTRACE_GETREGSET or PTRACE_SETREGSET, NT_X86_XSTATE) and a
 * buffer of the size it knows, without the dynamically enabled parts
 * (AMX tile data).  The host kernel's SETREGSET wants a buffer of its full
 * xstate size, 11008 bytes on a CPU with AMX, and fails with EFAULT
 * otherwise; UML then panics: "ptrace set fp regs failed, errno = 14".
 *
 * Here those two requests go through a buffer of the host's size.  The
 * layout is the standard (non-compacted) XSAVE format, the same for both
 * sizes, so UML's part is copied as it is; on SETREGSET the components
 * beyond UML's buffer (AMX, bits 17 and up, which UML's processes never
 * use) are put in their initial state.  x87, SSE, AVX, AVX-512 and PKRU
 * go back and forth unchanged.  Where the host's size is no larger than
 * UML's (every CPU without AMX), every call goes straight to the C
 * library, so the shim changes nothing there.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

/* elf.h's NT_X86_XSTATE, without the rest of elf.h */
#define XSTATE_NOTE 0x202
/* the XSAVE header follows the 512-byte legacy area: XSTATE_BV, XCOMP_BV */
#define XSAVE_HDR 512
/* bits 17 and 18 of XSTATE_BV: AMX tile configuration and tile data */
#define UML_FEATURES ((UINT64_C(1) << 17) - 1)
#define FULL_MAX 65536

static _Thread_local unsigned char full[FULL_MAX] __attribute__((aligned(64)));
/* the host's xstate size, learnt at the first call */
static size_t host_size;

static long xstate_get(pid_t pid, struct iovec *iov)
{
	struct iovec b = { full, host_size };
	size_t n = iov->iov_len;

	if (syscall(SYS_ptrace, PTRACE_GETREGSET, pid, XSTATE_NOTE, &b) < 0)
		return -1;
	if (b.iov_len < n)
		n = b.iov_len;
	memcpy(iov->iov_base, full, n);
	iov->iov_len = n;
	return 0;
}

static long xstate_set(pid_t pid, const struct iovec *iov)
{
	struct iovec b = { full, host_size };
	size_t n = iov->iov_len;
	uint64_t bv;

	memcpy(full, iov->iov_base, n);
	memset(full + n, 0, host_size - n);
	if (n >= XSAVE_HDR + 16) {
		memcpy(&bv, full + XSAVE_HDR, sizeof bv);
		bv &= UML_FEATURES;
		memcpy(full + XSAVE_HDR, &bv, sizeof bv);
		/* XCOMP_BV 0: the standard format */
		memset(full + XSAVE_HDR + 8, 0, 8);
	}
	return syscall(SYS_ptrace, PTRACE_SETREGSET, pid, XSTATE_NOTE, &b);
}

long ptrace(enum __ptrace_request req, ...)
{
	static long (*real)(enum __ptrace_request, ...);
	va_list ap;
	pid_t pid;
	void *addr, *data;

	va_start(ap, req);
	pid = va_arg(ap, pid_t);
	addr = va_arg(ap, void *);
	data = va_arg(ap, void *);
	va_end(ap);
	if (real == NULL) {
		void *f = dlsym(RTLD_NEXT, "ptrace");

		if (f == NULL) {
			fputs("xstate_shim: no ptrace in the C library\n", stderr);
			abort();
		}
		/* POSIX: a dlsym() result converts to a function pointer */
		memcpy(&real, &f, sizeof real);
	}
	if ((req == PTRACE_GETREGSET || req == PTRACE_SETREGSET) &&
	    (uintptr_t)addr == XSTATE_NOTE && data != NULL) {
		struct iovec *iov = data;

		if (host_size == 0) {
			struct iovec b = { full, FULL_MAX };

			if (syscall(SYS_ptrace, PTRACE_GETREGSET, pid,
			    XSTATE_NOTE, &b) < 0)
				return -1;
			host_size = b.iov_len;
		}
		if (host_size > iov->iov_len && host_size <= FULL_MAX)
			return req == PTRACE_GETREGSET ? xstate_get(pid, iov) :
			    xstate_set(pid, iov);
	}
	return real(req, pid, addr, data);
}
