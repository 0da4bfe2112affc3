/* SPDX-License-Identifier: MIT */
/*
 * command.h - the subcommands of cvmbench, one file each (cmd-*.c).
 * Each takes argv with argv[0] = its own name and returns an exit code
 * (see exitcode.h).
 */
#ifndef CVMBENCH_COMMAND_H
#define CVMBENCH_COMMAND_H

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_agent(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_slurm(int argc, char **argv);
int cmd_study(int argc, char **argv);
int cmd_minmem(int argc, char **argv);
/* planner/cmd-trace.c, planner/cmd-plan.c, planner/cmd-replay.c */
int cmd_trace(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_replay(int argc, char **argv);
/* bench/backends/qemu/cmd-guest.c */
int cmd_guest(int argc, char **argv);
/* bench/backends/qemu/cmd-qemu-argv.c */
int cmd_qemu_argv(int argc, char **argv);
/* bench/backends/rootfs/cmd-rootfs.c */
int cmd_rootfs(int argc, char **argv);

#endif
