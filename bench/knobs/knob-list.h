/* SPDX-License-Identifier: MIT */
/*
 * knob-list.h - every knob, one line each, in the order they are applied
 * (restored in reverse). Adding a knob is one new file defining
 * `const struct knob_ops knob_<ident>` and one line here.
 */
#define KNOBS(X)        \
	X(idle)         \
	X(favordynmods) \
	X(corunner)     \
	X(thp)          \
	X(ple)          \
	X(halt_poll)    \
	X(corunner_vm)  \
	X(ksm)          \
	X(pin)          \
	X(membind)
