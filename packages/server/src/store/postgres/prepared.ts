/**
 * A statement that each connection parses once and PostgreSQL may then run without planning it
 * again (after five executions it settles on a generic plan when that costs no more than the
 * custom ones). Only for statements whose best plan cannot depend on their values: lookups
 * through a unique or exact index, the change feed read through its index. A search, or a page
 * filtered by a status that may be rare, needs the plan its values call for, so those stay
 * unnamed (planned at every execution).
 *
 * Why: an unnamed statement is parsed, analysed and planned on every execution, and with the
 * many indexes of `items` planning is most of a primary-key lookup's cost (BENCHMARKS.md).
 *
 * node-postgres remembers per connection which names it has sent; a name must always carry the
 * same text, which the registry below checks when a statement is declared.
 */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

const declared = new Map<string, string>();

export function prepared(name: string, text: string): PreparedStatement {
  const existing = declared.get(name);
  if (existing !== undefined && existing !== text) {
    throw new Error(`two prepared statements are named ${name}`);
  }
  declared.set(name, text);
  return { name, text };
}
