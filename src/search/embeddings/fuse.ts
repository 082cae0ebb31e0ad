/**
 * Reciprocal rank fusion: each ranking gives a document weight / (k + rank), summed. It needs no
 * score calibration between BM25 and cosine similarity, which is why it is the usual way to
 * combine keyword and vector retrieval; k (default 60) flattens the head of each list.
 */
export function reciprocalRankFusion(rankings: ReadonlyArray<{ ordinals: readonly number[]; weight: number }>, k: number): Array<{ o: number; score: number }> {
  const scores = new Map<number, number>();
  for (const { ordinals, weight } of rankings) {
    ordinals.forEach((o, rank) => scores.set(o, (scores.get(o) ?? 0) + weight / (k + rank + 1)));
  }
  return [...scores].map(([o, score]) => ({ o, score })).sort((a, b) => b.score - a.score || a.o - b.o);
}
