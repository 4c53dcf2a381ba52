// `x-zomgen-connected`: what the rules link forms one graph, and the graph must be connected.
//
// `x-zomgen-connected: [[edge path, end, end, ...], ...]`: for every value an edge path reaches
// (a transformation), the ends, evaluated with the edge's `*`s bound, reach the nodes that edge
// links together. An end is a path, or `{"node": kind, "path": path}`, or `{"node": kind,
// "join": [path, ...], "with": separator}`: a node is the value an end reaches together with its
// kind, so a group's path and a coordinate system's name never meet. Every rule of the keyword
// adds to one graph, but only the first rule's edges must be joined: the later rules add links
// (an image's own links to its labels), and a group of their edges alone is not judged (an image
// the scene does not name). Each group holding an edge of the first rule, but the first such
// group, is a problem at its first edge (OME-Zarr 0.6's scene: "The graph MUST be connected").
// The twin of runtime/python/zomgen_runtime/connected.py, message for message.

import { type Location, type Path, canonical, evaluate, parsePath, short } from "./paths.js";
import { isArray, isObject } from "./pointers.js";
import { EQUAL, type Join, bindOperand, parseOperand, reach } from "./relations.js";
import { type Check, type Violation, malformed } from "./violations.js";

export const CONNECTED = "x-zomgen-connected";
const SHAPE = '[[edge path, path or {"node": kind, "path" or "join": ...}, ...], ...]';
const SHOWN = 3; // nodes named in a message, of each group

/** Where an edge's nodes are, and their kind ("" for a plain path). */
export interface End {
  readonly kind: string;
  readonly operand: Path | Join;
}

const isPathOrJoin = (o: unknown): o is Path | Join =>
  isObject(o) && (("tokens" in o && "links" in o) || ("parts" in o && "separator" in o));

function end(value: unknown): End | null {
  if (typeof value === "string") {
    const path = parsePath(value);
    return path === null ? null : { kind: "", operand: path };
  }
  if (!isObject(value) || typeof value["node"] !== "string") return null;
  const rest: { [key: string]: unknown } = {};
  for (const key of Object.keys(value)) if (key !== "node") rest[key] = value[key];
  const keys = Object.keys(rest);
  const parsed =
    keys.length === 1 && keys[0] === "path"
      ? parseOperand(rest["path"], EQUAL)
      : keys.includes("join")
        ? parseOperand(rest, EQUAL)
        : null;
  return parsed !== null && isPathOrJoin(parsed) ? { kind: value["node"], operand: parsed } : null;
}

type Rule = readonly [Path, readonly End[]];

function rules(value: unknown): Rule[] | null {
  if (!isArray(value)) return null;
  const parsed: Rule[] = [];
  for (const rule of value) {
    if (!isArray(rule) || rule.length < 2 || typeof rule[0] !== "string") return null;
    const edge = parsePath(rule[0]);
    const ends = rule.slice(1).map(end);
    if (edge === null || ends.some((e) => e === null)) return null;
    // (bound, a path stays a path and a join a join)
    const boundEnds = ends.flatMap((e) => (e === null ? [] : [{ kind: e.kind, operand: bindOperand(edge, e.operand) as Path | Join }]));
    parsed.push([edge, boundEnds]);
  }
  return parsed;
}

/** Nodes (kind + canonical text) joined by edges (union-find), each group remembering the
 * first edge reaching it. */
class Graph {
  readonly parent = new Map<string, string>();
  readonly names = new Map<string, string>();
  readonly edges: [Location, number, string[]][] = [];

  root(node: string): string {
    let here = node;
    for (let up = this.parent.get(here); up !== undefined && up !== here; up = this.parent.get(here)) {
      const grand = this.parent.get(up) ?? up;
      this.parent.set(here, grand);
      here = grand;
    }
    return here;
  }

  link(where: Location, rule: number, nodes: string[]): void {
    for (const node of nodes) if (!this.parent.has(node)) this.parent.set(node, node);
    const first = nodes[0];
    if (first !== undefined) for (const node of nodes.slice(1)) this.parent.set(this.root(node), this.root(first));
    this.edges.push([where, rule, nodes]);
  }

  /** Each group: its first edge's place and rule, and its nodes, in document order. */
  groups(): [Location, number, string[]][] {
    const found = new Map<string, [Location, number, string[]]>();
    for (const [where, rule, nodes] of this.edges) {
      for (const node of nodes) {
        const key = this.root(node);
        let group = found.get(key);
        if (group === undefined) {
          group = [where, rule, []];
          found.set(key, group);
        }
        if (!group[2].includes(node)) group[2].push(node);
      }
    }
    return [...found.values()];
  }

  described(nodes: readonly string[]): string {
    const names = nodes.slice(0, SHOWN).map((n) => this.names.get(n) ?? n);
    const more = nodes.length - SHOWN;
    return names.join(", ") + (more > 0 ? ` and ${more} more` : "");
  }
}

export function connected(value: unknown): Check {
  const parsed = rules(value);
  return (instance) => {
    if (!isObject(instance)) return [];
    if (parsed === null) return [malformed(CONNECTED, `expected ${SHAPE}`)];
    const graph = new Graph();
    parsed.forEach(([edge, ends], index) => {
      for (const e of evaluate(instance, edge, new Map())) {
        const nodes: string[] = [];
        for (const { kind, operand: o } of ends) {
          for (const reached of reach(instance, o, e.choices)) {
            const node = JSON.stringify([kind, canonical(reached.value)]);
            if (!graph.names.has(node)) graph.names.set(node, `${kind} ${short(reached.value)}`.trimStart());
            nodes.push(node);
          }
        }
        if (nodes.length > 0) graph.link(e.location, index, nodes);
      }
    });
    const groups = graph.groups().filter((g) => g[1] === 0); // their first edge is the first rule's
    const [head, ...rest] = groups;
    if (head === undefined || rest.length === 0) return [];
    const first = graph.described(head[2]);
    return rest.map(
      ([where, rule, nodes]): Violation => ({
        path: where,
        message: `links ${graph.described(nodes)}, which no chain of links joins to ${first}`,
        at: rule,
      }),
    );
  };
}
