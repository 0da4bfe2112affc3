// SPDX-License-Identifier: MIT
/*
 * chameleon.c - render an HTML table through a small template engine.
 *
 * Origin: FunctionBench "chameleon", which renders a rows x cols table with
 * the Chameleon page-template engine for Python. Here the engine is our own
 * and Jinja-like: a template string with {% for X in Y %} ... {% endfor %}
 * loops and {{ name }} substitutions, HTML-escaped exactly as Python's
 * html.escape(s, quote=True) does (& < > " ').
 *
 * init compiles the template into a node tree (what a warm container holds:
 * the compiled template) and builds the table: rows x cols cells whose text
 * comes from the seed and contains characters that need escaping, or the
 * cells of a tab-separated --input file. invoke renders the page; the HTML
 * goes into the digest and, with --output, to a file.
 * Sizes (rows x cols): test 10x10, small 100x100, large 1000x100.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "wlexport.h"
#include "wlfile.h"
#include "workload.h"

#define TMPL_NAME_MAX 32

static const char page_template[] =
	"<!DOCTYPE html>\n"
	"<html><head><title>{{ title }}</title></head>\n"
	"<body>\n"
	"<table>\n"
	"{% for row in rows %}<tr>{% for cell in row %}<td>{{ cell }}</td>{% endfor %}</tr>\n"
	"{% endfor %}</table>\n"
	"</body></html>\n";

static const char page_title[] = "rows & cols";

/* A template value: a string or a list of values. */
struct tvalue {
	int is_list;
	const char *str;
	size_t len;
	struct tvalue *items;
	size_t count;
};

enum tnode_type { TNODE_TEXT, TNODE_VAR, TNODE_FOR };

/* A compiled template node; a FOR node owns its body. */
struct tnode {
	enum tnode_type type;
	const char *text;             /* TEXT: points into the template */
	size_t len;
	char name[TMPL_NAME_MAX];     /* VAR: variable; FOR: loop variable */
	char iter[TMPL_NAME_MAX];     /* FOR: the list iterated over */
	struct tnode *body;
	size_t nbody;
};

/* Name bindings while rendering: innermost first. */
struct tscope {
	const char *name;
	const struct tvalue *value;
	const struct tscope *parent;
};

struct sbuf {
	char *data;
	size_t len, cap;
	int oom;
};

struct chameleon_state {
	struct tnode *nodes;          /* the compiled template */
	size_t nnodes;
	struct tvalue root;           /* the "rows" list */
	struct tvalue title;
	char *cell_text;              /* arena holding every cell's text */
	size_t rows, cols, cells;
	struct sbuf html;
};

static void sbuf_add(struct sbuf *b, const char *s, size_t len)
{
	if (b->oom || !len)
		return;           /* nothing (and @s may be NULL: memcpy must not see it) */
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;

		while (cap < b->len + len)
			cap *= 2;
		p = realloc(b->data, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, len);
	b->len += len;
}

/* html.escape(s, quote=True): & < > " ' */
static void sbuf_add_escaped(struct sbuf *b, const char *s, size_t len)
{
	size_t i, run = 0;

	for (i = 0; i < len; i++) {
		const char *rep;

		switch (s[i]) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#x27;"; break;
		default: continue;
		}
		sbuf_add(b, s + run, i - run);
		sbuf_add(b, rep, strlen(rep));
		run = i + 1;
	}
	sbuf_add(b, s + run, len - run);
}

/* ---- template compiler ------------------------------------------------- */

struct tparser {
	const char *pos, *end;
	struct wl_instance *inst;
};

static void tnodes_free(struct tnode *nodes, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		tnodes_free(nodes[i].body, nodes[i].nbody);
	free(nodes);
}

static struct tnode *tnode_push(struct tnode **nodes, size_t *n)
{
	struct tnode *p = realloc(*nodes, (*n + 1) * sizeof(**nodes));

	if (!p)
		return NULL;
	*nodes = p;
	memset(&p[*n], 0, sizeof(p[*n]));
	return &p[(*n)++];
}

/* Copies the tag's inner text, trimmed, into @buf. Returns the tag end. */
static const char *tag_inner(struct tparser *tp, const char *open,
			     const char *close, char *buf, size_t len)
{
	const char *s = open + 2, *e = strstr(s, close);
	size_t n;

	if (!e || e >= tp->end)
		return NULL;
	while (s < e && *s == ' ')
		s++;
	n = (size_t)(e - s);
	while (n && s[n - 1] == ' ')
		n--;
	if (n >= len)
		return NULL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return e + 2;
}

static int valid_name(const char *s)
{
	if (!*s || strlen(s) >= TMPL_NAME_MAX)
		return 0;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9')))
			return 0;
	return 1;
}

static int parse_nodes(struct tparser *tp, struct tnode **nodes, size_t *n,
		       int in_loop);

static int parse_for(struct tparser *tp, struct tnode *node, const char *inner)
{
	char in_word[8];

	node->type = TNODE_FOR;
	if (sscanf(inner, "for %31s %7s %31s", node->name, in_word, node->iter) != 3 ||
	    strcmp(in_word, "in") || !valid_name(node->name) || !valid_name(node->iter))
		return wl_error(tp->inst, -EINVAL, "chameleon: bad tag {%% %s %%}", inner);
	return parse_nodes(tp, &node->body, &node->nbody, 1);
}

/* Handles one {% %} or {{ }} tag at tp->pos. 1 when it was {% endfor %}. */
static int parse_tag(struct tparser *tp, struct tnode **nodes, size_t *n,
		     int in_loop)
{
	int is_stmt = tp->pos[1] == '%';
	char inner[96];
	const char *after = tag_inner(tp, tp->pos, is_stmt ? "%}" : "}}",
				      inner, sizeof(inner));
	struct tnode *node;

	if (!after)
		return wl_error(tp->inst, -EINVAL, "chameleon: unterminated tag");
	tp->pos = after;
	if (is_stmt && !strcmp(inner, "endfor"))
		return in_loop ? 1 : wl_error(tp->inst, -EINVAL,
					      "chameleon: endfor without for");
	node = tnode_push(nodes, n);
	if (!node)
		return wl_error(tp->inst, -ENOMEM, "chameleon: out of memory");
	if (is_stmt)
		return parse_for(tp, node, inner);
	node->type = TNODE_VAR;
	if (!valid_name(inner))
		return wl_error(tp->inst, -EINVAL, "chameleon: bad variable {{ %s }}", inner);
	strcpy(node->name, inner);
	return 0;
}

static int parse_nodes(struct tparser *tp, struct tnode **nodes, size_t *n,
		       int in_loop)
{
	while (tp->pos < tp->end) {
		const char *tag = strstr(tp->pos, "{");
		int err;

		while (tag && tag[1] != '%' && tag[1] != '{')
			tag = strstr(tag + 1, "{");
		if (!tag)
			tag = tp->end;
		if (tag > tp->pos) {
			struct tnode *text = tnode_push(nodes, n);

			if (!text)
				return wl_error(tp->inst, -ENOMEM, "chameleon: out of memory");
			text->type = TNODE_TEXT;
			text->text = tp->pos;
			text->len = (size_t)(tag - tp->pos);
			tp->pos = tag;
			continue;
		}
		err = parse_tag(tp, nodes, n, in_loop);
		if (err)
			return err < 0 ? err : 0;
	}
	return in_loop ? wl_error(tp->inst, -EINVAL, "chameleon: missing endfor") : 0;
}

/* ---- renderer ------------------------------------------------------------ */

static const struct tvalue *scope_lookup(const struct tscope *sc, const char *name)
{
	for (; sc; sc = sc->parent)
		if (!strcmp(sc->name, name))
			return sc->value;
	return NULL;
}

static int render_nodes(struct wl_instance *inst, const struct tnode *nodes,
			size_t n, const struct tscope *sc, struct sbuf *out);

static int render_for(struct wl_instance *inst, const struct tnode *node,
		      const struct tscope *sc, struct sbuf *out)
{
	const struct tvalue *list = scope_lookup(sc, node->iter);
	struct tscope inner = { .name = node->name, .parent = sc };
	size_t i;
	int err;

	if (!list || !list->is_list)
		return wl_error(inst, -EINVAL, "chameleon: '%s' is not a list", node->iter);
	for (i = 0; i < list->count; i++) {
		inner.value = &list->items[i];
		err = render_nodes(inst, node->body, node->nbody, &inner, out);
		if (err)
			return err;
	}
	return 0;
}

static int render_nodes(struct wl_instance *inst, const struct tnode *nodes,
			size_t n, const struct tscope *sc, struct sbuf *out)
{
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		const struct tnode *node = &nodes[i];
		const struct tvalue *v;

		switch (node->type) {
		case TNODE_TEXT:
			sbuf_add(out, node->text, node->len);
			break;
		case TNODE_VAR:
			v = scope_lookup(sc, node->name);
			if (!v || v->is_list)
				return wl_error(inst, -EINVAL,
						"chameleon: '%s' is not a string", node->name);
			sbuf_add_escaped(out, v->str, v->len);
			break;
		case TNODE_FOR:
			err = render_for(inst, node, sc, out);
			if (err)
				return err;
			break;
		}
	}
	return 0;
}

/* ---- the table ------------------------------------------------------------ */

static const char *const cell_extras[] = {
	"&", "<b>", "\"q\"", "'s", "a>b", "<&>", "x < y", "R&D",
};

/* Writes one cell's text (no tab or newline) at @p, returns its length. */
static size_t make_cell(struct rng *r, char *p)
{
	size_t nvocab, len = 0, words = 1 + rng_below(r, 3), i;
	const char *const *vocab = wl_vocabulary(&nvocab);

	for (i = 0; i < words; i++) {
		const char *w = vocab[rng_below(r, nvocab)];

		if (i)
			p[len++] = ' ';
		memcpy(p + len, w, strlen(w));
		len += strlen(w);
	}
	if (rng_below(r, 100) < 40) {
		const char *x = cell_extras[rng_below(r, sizeof(cell_extras) /
						      sizeof(cell_extras[0]))];

		p[len++] = ' ';
		memcpy(p + len, x, strlen(x));
		len += strlen(x);
	}
	return len;
}

static int table_alloc(struct chameleon_state *st, size_t rows)
{
	st->root.is_list = 1;
	st->root.count = rows;
	st->root.items = calloc(rows ? rows : 1, sizeof(struct tvalue));
	return st->root.items ? 0 : -ENOMEM;
}

static int table_generate(struct wl_instance *inst, struct chameleon_state *st)
{
	struct rng r;
	size_t i, j, pos = 0;

	st->rows = (size_t)wl_pick(inst, 10, 100, 1000);
	st->cols = (size_t)wl_pick(inst, 10, 100, 100);
	st->cells = st->rows * st->cols;
	/* 3 words of at most 9 letters, spaces and the longest extra */
	st->cell_text = malloc(st->cells * 48);
	if (!st->cell_text || table_alloc(st, st->rows))
		return wl_error(inst, -ENOMEM, "chameleon: out of memory for the table");
	rng_seed_stream(&r, inst->params.seed, 0xc4a3);
	for (i = 0; i < st->rows; i++) {
		struct tvalue *row = &st->root.items[i];

		row->is_list = 1;
		row->count = st->cols;
		row->items = calloc(st->cols, sizeof(struct tvalue));
		if (!row->items)
			return wl_error(inst, -ENOMEM, "chameleon: out of memory");
		for (j = 0; j < st->cols; j++) {
			row->items[j].str = st->cell_text + pos;
			row->items[j].len = make_cell(&r, st->cell_text + pos);
			pos += row->items[j].len;
		}
	}
	return 0;
}

/* Splits one line of the TSV input into the cells of @row. */
static int row_parse(struct tvalue *row, char *line, size_t len)
{
	size_t i, start = 0, k = 0;

	if (len && line[len - 1] == '\r')
		len--;
	row->is_list = 1;
	row->count = 1;
	for (i = 0; i < len; i++)
		row->count += line[i] == '\t';
	row->items = calloc(row->count, sizeof(struct tvalue));
	if (!row->items)
		return -ENOMEM;
	for (i = 0; i <= len; i++) {
		if (i < len && line[i] != '\t')
			continue;
		row->items[k].str = line + start;
		row->items[k++].len = i - start;
		start = i + 1;
	}
	return (int)row->count;
}

static int table_read(struct wl_instance *inst, struct chameleon_state *st)
{
	size_t len, i, rows = 0, start = 0, r = 0;
	void *data;
	int err = wl_read_file(inst, inst->params.input, &data, &len);
	char *text;

	if (err)
		return err;
	text = st->cell_text = data;
	if (len && text[len - 1] == '\n')
		len--;
	if (!len)
		return wl_error(inst, -EINVAL, "chameleon: %s holds no table",
				inst->params.input);
	for (i = 0; i < len; i++)
		rows += text[i] == '\n';
	if (table_alloc(st, rows + 1))
		return wl_error(inst, -ENOMEM, "chameleon: out of memory");
	for (i = 0; i <= len; i++) {
		if (i < len && text[i] != '\n')
			continue;
		err = row_parse(&st->root.items[r++], text + start, i - start);
		if (err < 0)
			return wl_error(inst, -ENOMEM, "chameleon: out of memory");
		st->cells += (size_t)err;
		start = i + 1;
	}
	st->rows = r;
	st->cols = st->root.items[0].count;
	return 0;
}

static void chameleon_teardown(struct wl_instance *inst)
{
	struct chameleon_state *st = inst->priv;
	size_t i;

	tnodes_free(st->nodes, st->nnodes);
	for (i = 0; st->root.items && i < st->root.count; i++)
		free(st->root.items[i].items);
	free(st->root.items);
	free(st->cell_text);
	free(st->html.data);
}

static int chameleon_init(struct wl_instance *inst)
{
	struct chameleon_state *st;
	struct tparser tp = { page_template, page_template + sizeof(page_template) - 1,
			      inst };
	int err;

	st = inst->priv;
	st->title.str = page_title;
	st->title.len = strlen(page_title);
	err = parse_nodes(&tp, &st->nodes, &st->nnodes, 0);
	if (!err)
		err = inst->params.input ? table_read(inst, st) : table_generate(inst, st);
	return err;
}

static int chameleon_invoke(struct wl_instance *inst, struct wl_output *out)
{
	struct chameleon_state *st = inst->priv;
	struct tscope rows = { "rows", &st->root, NULL };
	struct tscope title = { "title", &st->title, &rows };
	int err;

	st->html.len = 0;
	err = render_nodes(inst, st->nodes, st->nnodes, &title, &st->html);
	if (err)
		return err;
	if (st->html.oom)
		return wl_error(inst, -ENOMEM, "chameleon: out of memory for the page");
	wl_out_ref(out, st->html.data, st->html.len);
	snprintf(inst->summary, sizeof(inst->summary),
		 "rendered %zu rows, %zu cells, %zu bytes of HTML",
		 st->rows, st->cells, st->html.len);
	if (inst->params.output)
		wl_out_file(out, inst->params.output, st->html.data, st->html.len);
	return 0;
}

/*
 * For the Python twin: "table", the cells as tab-separated lines (a cell
 * holds neither a tab nor a newline), the format --input reads.
 */
static int chameleon_export(struct wl_instance *inst)
{
	struct chameleon_state *st = inst->priv;
	struct sbuf tsv = { 0 };
	size_t i, j;
	int err;

	for (i = 0; i < st->root.count; i++) {
		const struct tvalue *row = &st->root.items[i];

		for (j = 0; j < row->count; j++) {
			sbuf_add(&tsv, j ? "\t" : "", j ? 1 : 0);
			sbuf_add(&tsv, row->items[j].str, row->items[j].len);
		}
		sbuf_add(&tsv, "\n", 1);
	}
	err = tsv.oom ? wl_error(inst, -ENOMEM, "chameleon: out of memory for the table")
		      : wl_export_write(inst, "table", tsv.data, tsv.len);
	free(tsv.data);
	return err;
}

const struct workload_ops wl_chameleon = {
	.version = WL_OPS_VERSION,
	.info = &wl_info_chameleon,
	.state_size = sizeof(struct chameleon_state),
	.init = chameleon_init,
	.invoke = chameleon_invoke,
	.teardown = chameleon_teardown,
	.export_inputs = chameleon_export,
};
