/* schema_keys.c - print every key of the scenario format, from the schema
 * tables of input/schema.c, one per line:
 *
 *     SECTION<TAB>KEY<TAB>ENUM VALUES (space-separated, or empty)
 *
 * SECTION is the object the key belongs to: scenario, machine, runtime,
 * queue, Ractor, thread, stop, "op NAME" for each op and "dist NAME" for
 * each distribution.  tests/docs/schema_doc.sh compares this list with the
 * key tables of scenarios/README.md, so that a key added to the schema
 * without documentation (or documented but gone) fails `make test`.
 */
#include <stdio.h>

#include "../../input/scenario.h"
#include "../../input/schema.h"

static void print_obj(const char *section, const struct sch_obj *o)
{
    for (int i = 0; i < o->nkeys; i++) {
        const struct sch_key *k = &o->keys[i];
        printf("%s\t%s\t", section, k->name);
        for (int j = 0; k->values && k->values[j]; j++)
            printf("%s%s", j ? " " : "", k->values[j]);
        putchar('\n');
    }
}

/* Objects nested in o (runtime, queues, ractors -> threads, stop). */
static void walk(const struct sch_obj *o)
{
    print_obj(o->what, o);
    for (int i = 0; i < o->nkeys; i++) {
        const struct sch_key *k = &o->keys[i];
        if (k->kind == SCH_MACHINE) walk(&sch_machine);
        else if ((k->kind == SCH_OBJECT || k->kind == SCH_ARRAY) && k->obj) walk(k->obj);
    }
}

int main(void)
{
    walk(&sch_scenario);
    char section[64];
    for (int kind = 0; scn_op_names[kind]; kind++) {
        snprintf(section, sizeof section, "op %s", scn_op_names[kind]);
        print_obj(section, sch_op(kind));
    }
    for (int kind = 0; scn_dist_names[kind]; kind++) {
        snprintf(section, sizeof section, "dist %s", scn_dist_names[kind]);
        print_obj(section, sch_dist(kind));
    }
    return 0;
}
