/* gvl_policy.c - the registry of GVL policies (one line each). */
#include "gvl_policy.h"

#include <stddef.h>

static const struct gvl_policy *const policies[GVL_POLICY_COUNT] = {
    [GVL_POLICY_EAGER] = &gvl_eager,
    [GVL_POLICY_HOT_STEAL] = &gvl_hot_steal,
    [GVL_POLICY_DELAYED] = &gvl_delayed,
    [GVL_POLICY_THRESHOLD] = &gvl_threshold,
    [GVL_POLICY_BARGING] = &gvl_barging,
};

const struct gvl_policy *gvl_policy_get(enum scn_gvl_policy id)
{
    if ((unsigned)id >= GVL_POLICY_COUNT) return NULL;
    return policies[id];
}
