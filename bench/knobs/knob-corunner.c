// SPDX-License-Identifier: MIT
/*
 * knob-corunner.c - the co-runner (key corunner = N): a process of N
 * CPU-bound threads running beside the cell's instances, whatever their
 * backend, started before the cell's backend sets up and ended after it.
 * It dies with cvmbench (PR_SET_PDEATHSIG) and is journalled, so a crash
 * cannot leave it spinning.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "journal.h"
#include "knob-corunner.h"
#include "log.h"

static struct {
	pid_t pid;
	long journal_id;
} corunner;

static void *spin(void *arg)
{
	volatile unsigned long n = 0;

	(void)arg;
	for (;;)
		n++;
	return NULL;
}

static void corunner_child(int threads)
{
	pthread_t t;
	int i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGINT, SIG_IGN);
	for (i = 1; i < threads; i++)
		pthread_create(&t, NULL, spin, NULL);
	spin(NULL);
}

static int corunner_apply(const struct cell *c, char *why, size_t len)
{
	memset(&corunner, 0, sizeof(corunner));
	if (c->corunner <= 0)
		return 0;
	corunner.pid = fork();
	if (corunner.pid == 0)
		corunner_child(c->corunner);
	if (corunner.pid < 0) {
		snprintf(why, len, "cannot start the co-runner: %s", strerror(errno));
		return -errno;
	}
	corunner.journal_id = journal_process(corunner.pid);
	if (corunner.journal_id < 0) {
		snprintf(why, len, "cannot journal the co-runner (so it is ended): %s",
			 strerror((int)-corunner.journal_id));
		kill(corunner.pid, SIGKILL);
		waitpid(corunner.pid, NULL, 0);
		return (int)corunner.journal_id;
	}
	return 0;
}

static void corunner_restore(const struct cell *c)
{
	(void)c;
	if (corunner.journal_id <= 0)
		return;
	kill(corunner.pid, SIGKILL);
	waitpid(corunner.pid, NULL, 0);
	if (journal_forget(corunner.journal_id))
		pr_warn("cannot close journal entry %ld (%s)", corunner.journal_id,
			journal_path());
	memset(&corunner, 0, sizeof(corunner));
}

pid_t corunner_pid(void)
{
	return corunner.journal_id > 0 ? corunner.pid : 0;
}

const struct knob_ops knob_corunner = {
	.name = "corunner",
	.apply = corunner_apply,
	.restore = corunner_restore,
};
