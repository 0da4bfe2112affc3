// SPDX-License-Identifier: MIT
/*
 * compare-pair.c - give every loaded cell its side and its pair key, then
 * pair each side with the baseline side of the same pair key.
 *
 * The pair key (cell_pair_hash) is computed here from cell.spec, not
 * stored: it depends on the pairing dimension chosen at analysis time
 * (--pair-by), it uses the same table of defaults as the cell key, and so
 * it works on every database ever written and on merged ones, with no
 * migration.
 *
 * The side, when pairing by `confidential`, is what the cell ran in, not
 * only what it asked for: for a cell that ran in VMs of its own (it has the
 * cell_param qemu.accel, which a VM backend stores for every cell whose VMs
 * started) the guest kind it asked for (the cell is skipped when that
 * cannot be had; a guest's own detection noted as cell_param
 * "guest.cvm.type" overrides it), for any other cell the detected cvm.type
 * of the run's machine (guest vantage: a cloud instance). A cell that asked for a CVM and did not get one has no side:
 * it is never paired as a CVM. A lazy cell (guest-accept = lazy) is a side
 * of its own, "model lazy", paired with the same regular twin.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cell-hash.h"
#include "compare.h"
#include "config.h"
#include "log.h"

/**
 * cmp_spec_value() - the value of @key in @spec ("key = value" lines)
 * into @buf, else the key's default, else "". Returns @buf.
 */
const char *cmp_spec_value(const char *spec, const char *key, char *buf, size_t len)
{
	const struct config_key *k = config_key_find(key);
	size_t kl = strlen(key), vl;
	const char *p = spec, *nl;

	snprintf(buf, len, "%s", k && k->def ? k->def : "");
	for (; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (strncmp(p, key, kl) || strncmp(p + kl, " = ", 3))
			continue;
		p += kl + 3;
		vl = nl ? (size_t)(nl - p) : strlen(p);
		snprintf(buf, len, "%.*s", (int)vl, p);
		break;
	}
	return buf;
}

/**
 * cmp_spec_pair() - the pair key of a cell whose spec is @spec, pairing
 * by @pair_by, into *@pair (for a cell compare does not load: a skipped
 * one). Returns 0 or -ENOMEM.
 */
int cmp_spec_pair(const char *spec, const char *pair_by, uint64_t *pair)
{
	return cell_pair_hash(spec, pair_by, pair) ? -ENOMEM : 0;
}

/**
 * cmp_kv_get() - the value of @key among @n facts @v, or NULL.
 */
const char *cmp_kv_get(const struct cmp_kv *v, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].key, key))
			return v[i].value;
	return NULL;
}

/*
 * Side @got of @c, "model lazy" or "sev-snp lazy" at the lazy acceptance
 * point (guest-accept; not in the pair key, so both points share the
 * regular twin), as it was at the eager one (a key absent is eager).
 */
static char *accept_side(const struct cmp_cell *c, const char *got)
{
	char accept[16], *side;

	cmp_spec_value(c->spec, "guest-accept", accept, sizeof(accept));
	if (!strcmp(got, "none") || strcmp(accept, "lazy"))
		return strdup(got);
	return asprintf(&side, "%s lazy", got) < 0 ? NULL : side;
}

/* The side of @c when pairing by confidential (NULL, @why set: none). */
static char *cvm_side(const struct cmp_data *d, struct cmp_cell *c, char *why, size_t len)
{
	const struct cmp_run *r = &d->runs[c->run];
	const char *asked = c->dim_value, *got;

	if (cmp_kv_get(c->notes, c->nnotes, "qemu.accel")) {    /* its own VMs */
		got = cmp_kv_get(c->notes, c->nnotes, "guest.cvm.type");
		got = got ? got : asked;
		if (!strcmp(asked, "model") && !strcmp(got, "none"))
			got = "model";
	} else {
		got = cmp_kv_get(r->env, r->nenv, "cvm.type");
		if (!strcmp(asked, "model")) {
			snprintf(why, len, "confidential = model applies to backend qemu only");
			return NULL;
		}
	}
	if (!got) {
		snprintf(why, len, "its run has no cvm.type fact");
		return NULL;
	}
	if (strcmp(asked, "none") && strcmp(asked, got)) {
		snprintf(why, len, "asked confidential = %s, ran in %s", asked, got);
		return NULL;
	}
	return accept_side(c, got);
}

/**
 * cmp_assign() - give each cell of @d its value of the pairing dimension,
 * its side and its pair key. Returns 0 or -ENOMEM.
 */
int cmp_assign(struct cmp_data *d, const struct cmp_opts *o)
{
	char buf[512], why[256];
	struct cmp_cell *c;
	size_t i;

	for (i = 0; i < d->ncells; i++) {
		c = &d->cells[i];
		why[0] = '\0';
		c->dim_value = strdup(cmp_spec_value(c->spec, o->pair_by, buf, sizeof(buf)));
		if (!c->dim_value || cell_pair_hash(c->spec, o->pair_by, &c->pair))
			return -ENOMEM;
		if (!strcmp(o->pair_by, "confidential"))
			c->side = cvm_side(d, c, why, sizeof(why));
		else
			c->side = strdup(c->dim_value);
		if (!c->side && why[0] && !(c->why_unpaired = strdup(why)))
			return -ENOMEM;
		if (!c->side && !why[0])
			return -ENOMEM;
	}
	return 0;
}

static void kv_free(struct cmp_kv *v, size_t n)
{
	while (n--) {
		free(v[n].key);
		free(v[n].value);
	}
	free(v);
}

/**
 * cmp_cell_free() - free what a loaded cell @c holds.
 */
void cmp_cell_free(struct cmp_cell *c)
{
	free(c->cell_key), free(c->experiment), free(c->workload), free(c->size);
	free(c->backend), free(c->mode), free(c->spec), free(c->dim_value);
	free(c->side), free(c->why_unpaired), free(c->lat_ns);
	kv_free(c->notes, c->nnotes);
	kv_free(c->exits, c->nexits);
	kv_free(c->svc_unknown, c->nunknown);
	while (c->nsvc--)
		free(c->svc[c->nsvc].v);
	free(c->svc);
}

/**
 * cmp_free() - free what cmp_load() and cmp_assign() allocated in @d.
 */
void cmp_free(struct cmp_data *d)
{
	size_t i;

	for (i = 0; i < d->nruns; i++) {
		free(d->runs[i].vantage);
		free(d->runs[i].version);
		free(d->runs[i].identity);
		kv_free(d->runs[i].env, d->runs[i].nenv);
	}
	for (i = 0; i < d->ncells; i++)
		cmp_cell_free(&d->cells[i]);
	free(d->runs);
	free(d->cells);
	memset(d, 0, sizeof(*d));
}
