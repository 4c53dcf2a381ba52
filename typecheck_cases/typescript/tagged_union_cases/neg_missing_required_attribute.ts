// Negative: the attributes must hold a `transform` (`required`).
import type { Transformed } from "../packages/tagged_union/types.js";
import { TRANSFORMED } from "./_valid.js";

// @ts-expect-error TS2741 transform is required
export const no_transform: Transformed = { ...TRANSFORMED, attributes: {} };
