/**
 * Passages of ES's unified highlighter (Lucene 7.7 FieldHighlighter with ES's
 * BoundedBreakIteratorScanner and CustomPassageFormatter): the matches of a field's text, in
 * offset order, are gathered into passages bounded by sentences of at most `fragment_size` chars,
 * each scored by Lucene's PassageScorer (BM25 over the passage as a small document, k1 1.2,
 * b 0.75, pivot 87 chars, times a boost for passages near the start); the best
 * `number_of_fragments` are kept, in text order or, with `order: score`, best first. Lucene
 * computes in floats, so scores are rounded to float32 at each step to order ties as it does.
 */

/** One match of a query term in the text. */
export interface PassageMatch {
  readonly start: number;
  readonly end: number;
  readonly term: string;
}

export interface Passage {
  start: number;
  end: number;
  matches: PassageMatch[];
  score: number;
}

/** Java BreakIterator's subset the highlighter uses. */
interface Breaks {
  preceding(offset: number): number;
  following(offset: number): number;
}

const DONE = -1;

/** A break iterator over sorted boundaries (first 0, last the text length). */
function boundaryBreaks(bounds: readonly number[]): Breaks {
  return {
    preceding(offset) {
      let lo = 0;
      let hi = bounds.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (bounds[mid]! < offset) lo = mid + 1;
        else hi = mid;
      }
      return lo === 0 ? DONE : bounds[lo - 1]!;
    },
    following(offset) {
      let lo = 0;
      let hi = bounds.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (bounds[mid]! <= offset) lo = mid + 1;
        else hi = mid;
      }
      return lo === bounds.length ? DONE : bounds[lo]!;
    },
  };
}

// ASCII answered by char code: these run for every character of every highlighted value
const isSpace = (c: string) => {
  const x = c.charCodeAt(0);
  return x < 128 ? x === 32 || (x >= 9 && x <= 13) : /\s/u.test(c);
};
const isLineEnd = (c: string) => {
  const x = c.charCodeAt(0);
  return x === 10 || x === 13 || x === 0x85 || x === 0x2028 || x === 0x2029;
};
const CLOSERS = /["'’”»)\]}]/u;
/** The separator ES puts between a multi-valued field's values (CustomUnifiedHighlighter). */
export const VALUE_SEPARATOR = '\u0000';

/**
 * Sentence boundaries as Java's sentence BreakIterator finds them in prose: after `.`, `?` or `!`
 * (and closing quotes or brackets) and the spaces after them, unless a period is followed by a
 * lowercase word (an abbreviation); after line and paragraph ends; after each value separator.
 */
export function sentenceBounds(text: string): number[] {
  const out = [0];
  const push = (b: number) => {
    if (b > out[out.length - 1]! && b < text.length) out.push(b);
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === VALUE_SEPARATOR || isLineEnd(c)) {
      push(i + 1);
      continue;
    }
    if (c !== '.' && c !== '?' && c !== '!') continue;
    let j = i + 1;
    while (j < text.length && (text[j] === '.' || text[j] === '?' || text[j] === '!')) j++;
    while (j < text.length && CLOSERS.test(text[j]!)) j++;
    let k = j;
    while (k < text.length && isSpace(text[k]!) && !isLineEnd(text[k]!)) k++;
    if (k === j || k >= text.length) continue;
    if (c === '.' && /\p{Ll}/u.test(text[k]!)) continue;
    push(k);
    i = k - 1;
  }
  out.push(text.length);
  return out;
}

const isWordChar = (c: string) => {
  const x = c.charCodeAt(0);
  if (x < 128)
    return (x >= 97 && x <= 122) || (x >= 65 && x <= 90) || (x >= 48 && x <= 57) || x === 95 || x === 39; // prettier-ignore
  return /[\p{L}\p{N}_'’]/u.test(c);
};

/** Word boundaries (Java's word BreakIterator): around each word, and between other chars. */
export function wordBounds(text: string): number[] {
  const out = [0];
  for (let i = 1; i < text.length; i++)
    if (!(isWordChar(text[i - 1]!) && isWordChar(text[i]!))) out.push(i);
  if (text.length > 0) out.push(text.length);
  return out;
}

/**
 * ES BoundedBreakIteratorScanner: sentences merged while they fit in `maxLen`; a sentence longer
 * than that is cut at word boundaries around the match. preceding() sets up what following()
 * returns, as in ES.
 */
function boundedBreaks(text: string, maxLen: number): Breaks {
  const main = boundaryBreaks(sentenceBounds(text));
  // word boundaries are needed only for a sentence longer than maxLen
  let words: Breaks | null = null;
  const inner = () => (words ??= boundaryBreaks(wordBounds(text)));
  let windowStart = -1;
  let windowEnd = -1;
  let innerStart = -1;
  let innerEnd = 0;
  return {
    preceding(offset) {
      if (offset > windowStart && offset < windowEnd) {
        innerStart = innerEnd;
        innerEnd = windowEnd;
      } else {
        windowStart = innerStart = main.preceding(offset);
        windowEnd = innerEnd = main.following(offset - 1);
        while (innerEnd - innerStart < maxLen) {
          const next = main.following(innerEnd);
          if (next === DONE || next - innerStart > maxLen) break;
          windowEnd = innerEnd = next;
        }
      }
      if (innerEnd - innerStart > maxLen) {
        if (offset - maxLen > innerStart)
          innerStart = Math.max(innerStart, inner().preceding(offset - maxLen));
        const remaining = Math.max(0, maxLen - (offset - innerStart));
        if (offset + remaining < windowEnd)
          innerEnd = Math.min(windowEnd, inner().following(offset + remaining));
      }
      return innerStart;
    },
    following() {
      return innerEnd;
    },
  };
}

/** Each value of a multi-valued field whole (ES CustomSeparatorBreakIterator), for 0 fragments. */
function valueBreaks(text: string): Breaks {
  const bounds = [0];
  for (let i = 0; i < text.length; i++)
    if (text[i] === VALUE_SEPARATOR && i + 1 < text.length) bounds.push(i + 1);
  bounds.push(text.length);
  return boundaryBreaks(bounds);
}

// ---- PassageScorer ------------------------------------------------------------------------------

const f = Math.fround;
const K1 = f(1.2);
const B = f(0.75);
const PIVOT = f(87);

/** PassageScorer.weight: the term's importance from its frequency in the whole text. */
export function passageWeight(contentLength: number, totalTermFreq: number): number {
  const numDocs = f(1 + f(contentLength / PIVOT));
  return f(f(K1 + 1) * f(Math.log(1 + (numDocs + 0.5) / (totalTermFreq + 0.5))));
}

/** PassageScorer.tf: saturated frequency in the passage, normalised by its length. */
export function passageTf(freq: number, passageLen: number): number {
  const norm = f(K1 * f(f(1 - B) + f(B * f(passageLen / PIVOT))));
  return f(freq / f(freq + norm));
}

/** PassageScorer.norm: passages near the start of the text count more. */
export function passageNorm(passageStart: number): number {
  return f(1 + f(1 / f(Math.log(f(PIVOT + passageStart)))));
}

/** PassageScorer.score: the sum over the passage's distinct terms (first-seen order), normed. */
export function scorePassage(
  p: Passage,
  contentLength: number,
  freqInText: ReadonlyMap<string, number>,
): number {
  const inPassage = new Map<string, number>();
  for (const m of p.matches) inPassage.set(m.term, (inPassage.get(m.term) ?? 0) + 1);
  let score = 0;
  for (const [term, freq] of inPassage)
    score = f(
      score + f(passageTf(freq, p.end - p.start) * passageWeight(contentLength, freqInText.get(term) ?? 1)), // prettier-ignore
    );
  return f(score * passageNorm(p.start));
}

// ---- FieldHighlighter.highlightOffsetsEnums -----------------------------------------------------

/** Lucene's passage queue order: lower score first, then the earlier passage. */
const worse = (a: Passage, b: Passage) => a.score - b.score || a.start - b.start;

/**
 * How the text is cut into passages (ES boundary_scanner for the unified highlighter):
 * sentences merged up to `maxLen` chars (0: plain sentences), or single words.
 */
export type PassageScanner =
  { readonly kind: 'sentence'; readonly maxLen: number } | { readonly kind: 'word' };

/**
 * The best `maxPassages` passages of `text` holding `matches` (any order), in text order.
 * `maxPassages` 0 makes each value whole one passage and keeps all of them.
 */
export function unifiedPassages(
  text: string,
  matches: readonly PassageMatch[],
  scanner: PassageScanner | number,
  maxPassages: number,
): Passage[] {
  const scan: PassageScanner =
    typeof scanner === 'number' ? { kind: 'sentence', maxLen: scanner } : scanner;
  const contentLength = text.length;
  const sorted = [...matches].sort((a, b) => a.start - b.start || a.end - b.end);
  const freqInText = new Map<string, number>();
  for (const m of sorted) freqInText.set(m.term, (freqInText.get(m.term) ?? 0) + 1);
  const whole = maxPassages === 0;
  const limit = whole ? text.split(VALUE_SEPARATOR).length : maxPassages;
  const breaks = whole
    ? valueBreaks(text)
    : scan.kind === 'word'
      ? boundaryBreaks(wordBounds(text))
      : scan.maxLen > 0
        ? boundedBreaks(text, scan.maxLen)
        : boundaryBreaks(sentenceBounds(text));
  const queue: Passage[] = [];
  const offer = (p: Passage | null) => {
    if (!p) return;
    p.score = scorePassage(p, contentLength, freqInText);
    queue.push(p);
    if (queue.length > limit) {
      // drop the worst (PriorityQueue.poll)
      let w = 0;
      for (let i = 1; i < queue.length; i++) if (worse(queue[i]!, queue[w]!) < 0) w = i;
      queue.splice(w, 1);
    }
  };
  let passage: Passage | null = null;
  for (const m of sorted) {
    if (m.start < contentLength && m.end > contentLength) continue;
    if (!passage || m.start >= passage.end) {
      offer(passage);
      if (m.start >= contentLength) {
        passage = null;
        break;
      }
      const start = Math.max(breaks.preceding(m.start + 1), 0);
      const end = Math.min(breaks.following(m.start), contentLength);
      passage = { start, end, matches: [], score: 0 };
    }
    passage.matches.push(m);
  }
  offer(passage);
  return queue.sort((a, b) => a.start - b.start);
}

/**
 * ES CustomFieldHighlighter with no match: the first value's start up to the first word
 * boundary after `noMatchSize` chars (the whole value when shorter), or nothing.
 */
export function noMatchPassage(text: string, noMatchSize: number): Passage | null {
  if (!(noMatchSize > 0)) return null;
  let pos = 0;
  while (pos < text.length && text[pos] === VALUE_SEPARATOR) pos++;
  if (pos >= text.length) return null;
  let end = text.indexOf(VALUE_SEPARATOR, pos);
  if (end === -1) end = text.length;
  if (noMatchSize + pos < end) {
    const next = boundaryBreaks(wordBounds(text)).following(noMatchSize + pos);
    end = next === DONE ? text.length : next;
  }
  return { start: pos, end, matches: [], score: NaN };
}

/** ES CustomPassageFormatter: matches wrapped in the tags, the value separator dropped, trimmed. */
export function formatPassage(text: string, p: Passage, pre: string, post: string): string {
  let s = '';
  let pos = p.start;
  for (const m of p.matches) {
    if (m.start > pos) s += text.slice(pos, m.start);
    if (m.end > pos) {
      s += pre + text.slice(Math.max(pos, m.start), m.end) + post;
      pos = m.end;
    }
  }
  s += text.slice(pos, Math.max(pos, p.end));
  if (s.endsWith('\u2029') || s.endsWith(VALUE_SEPARATOR)) s = s.slice(0, -1);
  return s.trim();
}
