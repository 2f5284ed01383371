/** Score explanations in Elasticsearch's `_explanation` shape. */

export interface Explanation {
  value: number;
  description: string;
  details: Explanation[];
}

export const expl = (
  value: number,
  description: string,
  details: Explanation[] = [],
): Explanation => ({
  value: Math.fround(value),
  description,
  details,
});

export const noMatch = (description: string, details: Explanation[] = []): Explanation => ({
  value: 0,
  description,
  details,
});
