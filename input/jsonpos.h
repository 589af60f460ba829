/* jsonpos.h - strict JSON parsing with source positions.
 *
 * jpos_parse() reads RFC 8259 JSON, strictly (no leading zeros, no "1.",
 * no raw control characters in strings, UTF-8 only, no "\u0000"), into a
 * cJSON tree, and records every node's position in a side table
 * cJSON node -> {document, line, col, key line, key col, source text}.
 * Duplicate keys stay separate members, in text order, for the validator.
 *
 * Lines and columns are 1-based; a column counts characters (UTF-8 code
 * points; a tab is one), not bytes.  One table holds several documents: the
 * scenario, its machine profile and each --set value.  The table owns the
 * documents' text, so number lexemes stay readable for exact conversion.
 *
 * Loading is bounded: nesting at most JPOS_MAX_DEPTH levels, and at most
 * JPOS_MAX_VALUES values in all the documents of a table unless the loader
 * sets another bound (a 64 MiB file of "0," would otherwise take gigabytes
 * as cJSON nodes).
 */
#ifndef INPUT_JSONPOS_H
#define INPUT_JSONPOS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "../common/diag.h"
#include "scenario.h"

/* The deepest a valid scenario nests: root, ractors, a Ractor, threads, a
 * thread, program (6 levels), then an op and a body per loop, and the
 * innermost op and its distribution object; with room for one loop more,
 * so that a program one loop too deep gets the validator's message. */
#define JPOS_MAX_DEPTH (6 + 2 * (SCN_MAX_LOOP_DEPTH + 1) + 2)
/* Values a table may hold: about 200 bytes each once parsed. */
#define JPOS_MAX_VALUES 1000000

struct jpos {
    const char *file;      /* document name: a path or "--set[N]" */
    int doc;               /* document id (jpos_add_doc) */
    int line, col;         /* the value's first character */
    int key_line, key_col; /* its key if the value is an object member, else 0 */
    const char *text;      /* the value's first byte in the document, or NULL */
};

struct jpos_table;

int jpos_new(struct jpos_table **out);           /* GV_OK or GV_ENOMEM */
/* The bound on the values the table's documents may hold (default
 * JPOS_MAX_VALUES): a loader of larger documents (a recorded trace) sets
 * its own. */
void jpos_set_max_values(struct jpos_table *t, size_t n);
/* Room for n nodes at once (a loader that knows about how many values its
 * document holds: the table then grows no more, or less, while parsing).
 * GV_OK or GV_ENOMEM. */
int jpos_reserve(struct jpos_table *t, size_t n);
void jpos_free(struct jpos_table *t);

/* Add a document; the table takes ownership of `text` (len bytes plus a
 * NUL terminator at text[len]) in every case, even on failure.
 * *doc receives its id.  GV_OK or GV_ENOMEM. */
int jpos_add_doc(struct jpos_table *t, const char *name, char *text, size_t len, int *doc);

/* Parse document `doc` into *out and record every node's position.  col0
 * is added to columns on line 1 (a --set value starts inside "key=value").
 * The first error, as a diagnostic "name:L:C: message" (GV_EINVAL): a
 * syntax error, what RFC 8259 forbids, nesting deeper than JPOS_MAX_DEPTH,
 * more than the table's bound of values.  A syntax error quotes the text near it
 * only once the document has shown some JSON (a complete string, number or
 * literal): a file that is not JSON at all (a profile path naming
 * /etc/shadow) is never quoted.  GV_ENOMEM if memory ran out. */
int jpos_parse(struct jpos_table *t, int doc, int col0, cJSON **out, struct diag_list *diags);

/* Record (or replace) the position of a node made by the loader itself. */
int jpos_put(struct jpos_table *t, const cJSON *node, int doc, int line, int col,
             int key_line, int key_col);

/* Set the key position of a recorded node (a value attached under a new
 * key); no-op for an unknown node.  GV_OK. */
int jpos_set_key(struct jpos_table *t, const cJSON *node, int key_line, int key_col);

/* Copy a node's position into *out; returns 0 (and zeroes *out) if unknown. */
int jpos_get(const struct jpos_table *t, const cJSON *node, struct jpos *out);

/* The exact text of a number node ("1e3", "0.5"), *len bytes; NULL if the
 * node has no source text. */
const char *jpos_number_text(const struct jpos_table *t, const cJSON *node, size_t *len);

/* Name of a document. */
const char *jpos_doc_name(const struct jpos_table *t, int doc);

/* Line and column of byte offset `off` in text. */
void jpos_linecol(const char *text, size_t off, int *line, int *col);

#endif
