/* gvl_policy.c - the registry of GVL policies (one line each). */
#include "gvl_policy.h"

#include <stddef.h>

static const struct gvl_policy *const policies[GVL_POLICY_COUNT] = {
    [GVL_POLICY_EAGER] = &gvl_eager,
};

const struct gvl_policy *gvl_policy_get(enum scn_gvl_policy id)
{
    if ((unsigned)id >= GVL_POLICY_COUNT) return NULL;
    return policies[id];
}
