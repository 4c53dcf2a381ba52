// Negative: a v2 array may not hold `node_type`, a v3 key (`"node_type": false` in the base; a
// writer's own keys are allowed, docs/base-schemas.md).
import type { XarrayDataset } from "../packages/xarray_v2/types.js";
import { DATASET, VARIABLE } from "./_valid.js";

// @ts-expect-error TS2353 a v3 key on a v2 variable
export const node_type: XarrayDataset = { ...DATASET, members: { t: { ...VARIABLE, node_type: "array" } } };
